/**
 * GET /gspc-verify (specification, "Endpoints": pages; issue 7): checks the service's signed
 * measurement cards, and its offers and receipts, in the reader's own browser. The server renders
 * what is checked, the forms and the links to every file the check reads; the bundled script
 * (src/pages/browser/verify.ts) does the checking with WebCrypto and the one shared verifier
 * (src/core/verify), from this origin's public files and the keys its DID's host serves (issue
 * 36; the page's Content-Security-Policy allows that one other origin): it never calls POST
 * /api/verify or POST /api/receipts/verify, so no verdict on this page comes from the server.
 *
 * Query: `id` (optional), a card's 16-hex id or 64-hex sha256: the card is named on the page and
 * checked by the script as soon as it loads. Anything else is a 400 page that still carries the
 * forms (docs/drafts/pages-verify.md, "Errors").
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { GspcError } from '../core/errors.js';
import { readQuery } from '../serve/query.js';
import { html, jsonIsland, type SafeHtml } from './html.js';
import { page, PAGE_CSP, PAGE_HEADERS } from './layout.js';
import { didHostBase } from '../core/verify/key-source.js';
import type { PageContext } from './page-context.js';
import { CHECK_ROWS, JWS_ROWS, SOURCE_FILES } from './verify-text.js';

const PATH = '/gspc-verify';
const TITLE = 'Verify signed cards and receipts';
const DESCRIPTION =
  'Check the signed measurement cards, the public root and offers or receipts in your own browser with WebCrypto: no account, no fee, no verification call to the server.';

export const CARD_ID = /^([0-9a-f]{16}|[0-9a-f]{64})$/;

interface RootFacts {
  merkle_root: string;
  leaf_count: number;
  as_of: string;
  kid: string;
}
interface CardFacts {
  sha256: string;
  subject: string;
  axis: string;
  surface: string;
  as_of: string;
}

/** A served JSON document through the service's own route, or undefined when it is not served. */
async function served<T>(ctx: PageContext, path: string): Promise<T | undefined> {
  try {
    const r = await ctx.documents.readPath<T>(path);
    return r.ok ? r.value : undefined;
  } catch {
    return undefined;
  }
}

type Request = { kind: 'ok'; id?: string } | { kind: 'error'; status: 400 | 404; message: string; id?: string };

function readRequest(url: string): Request {
  let q: Map<string, string>;
  try {
    q = readQuery(url, ['id']);
  } catch (e) {
    if (e instanceof GspcError) return { kind: 'error', status: 400, message: e.message };
    throw e;
  }
  const id = q.get('id');
  if (id === undefined) return { kind: 'ok' };
  if (!CARD_ID.test(id))
    return {
      kind: 'error',
      status: 400,
      message: 'a card id is the first 16 hex characters of its sha256, or the whole 64 (lower case)',
    };
  return { kind: 'ok', id };
}

function rootParagraph(root: RootFacts | undefined, withdrawn: number | undefined): SafeHtml {
  if (!root)
    return html`<p class="callout" data-root="absent">This service publishes no signed root just now (<a href="/root.json"><code>/root.json</code></a>), so no card can be shown to be under it.</p>`;
  return html`<p data-root="present">The signed public root now covers <strong data-field="leaf_count">${root.leaf_count}</strong> active cards
(<code data-field="merkle_root">${root.merkle_root.slice(0, 16)}…</code>, as of <time data-field="as_of">${root.as_of}</time>, signed with <code>${root.kid}</code>)${withdrawn === undefined ? '' : html`; the withdrawal ledger lists <strong data-field="withdrawn">${withdrawn}</strong> withdrawn card${withdrawn === 1 ? '' : 's'}`}.
The script reads these from <a href="/root.json"><code>/root.json</code></a> and the ledgers itself and checks the root's signature; it does not take them from this text.</p>`;
}

function cardParagraph(id: string, card: CardFacts | undefined): SafeHtml {
  const id16 = id.slice(0, 16);
  if (!card)
    return html`<p class="callout" role="alert" data-card="absent">No card with id <code>${id}</code> is published here (<a href="/cards/index.json"><code>/cards/index.json</code></a> lists them).</p>`;
  return html`<p class="callout" data-card="${id16}">Card <code>${id16}</code>: ${card.surface === 'board.facts' ? 'facts' : card.subject} on <em>${card.axis}</em>, as of ${card.as_of}. Its file is <a href="/cards/${id16}.json"><code>/cards/${id16}.json</code></a>, its inclusion proof <a href="/cards/${id16}.proof.json"><code>/cards/${id16}.proof.json</code></a> and its C2SP tlog-proof <a href="/cards/${id16}.tlog-proof"><code>/cards/${id16}.tlog-proof</code></a>.<span class="needs-script"> The script checks it below as soon as it has loaded.</span></p>`;
}

function body(o: {
  id?: string;
  card?: CardFacts;
  error?: string;
  root?: RootFacts;
  withdrawn?: number;
  baseUrl: string;
}): SafeHtml {
  const checkRows = CHECK_ROWS.map(
    ([name, passes, from]) =>
      html`<tr><th scope="row"><code>${name}</code></th><td>${passes}</td><td>${from}</td></tr>`,
  );
  return html`<div class="page-verify">
<h1>${TITLE}</h1>
<p class="lede">Check this service's signed measurement cards yourself, in this browser: no account, no fee, and no verification call to the server. The page's script reads the public files (the signed root, the ledgers, the card log) from this origin and the keys from the DID's host (the DID document at <code>https://&lt;host&gt;/.well-known/did.json</code> that did:web names, wherever this page is served), and checks each card with WebCrypto and the same verifier, rules and test vectors as the <code>gspc verify</code> command. A card is <span class="state state-VALID">VALID</span> only when every check passes; otherwise it is <span class="state state-INVALID">INVALID</span> and each failed check says why. When the DID's host cannot be read, no card is VALID: <span class="state state-UNVERIFIABLE_KEY">UNVERIFIABLE_KEY</span>, because the keys this origin serves prove nothing by themselves. Measurement, not certification: a VALID card proves what the service signed and published, not that a model is good.</p>
<noscript><p class="callout" data-noscript>Verification needs this page's script: it runs in your browser (WebCrypto), so with JavaScript off the forms below cannot check anything. You can read every file the check uses (links under “Check without this page”) and run <code>gspc verify ${o.baseUrl}</code>, which checks the whole release the same way.</p></noscript>
${o.error === undefined ? '' : html`<p class="callout error" role="alert" data-error>${o.error}</p>`}
${rootParagraph(o.root, o.withdrawn)}
${o.id === undefined || o.error !== undefined ? '' : cardParagraph(o.id, o.card)}

<section aria-labelledby="h-cards" class="verify-forms">
<h2 id="h-cards">Check a card or a bundle</h2>
<form id="verify-id" method="get" action="${PATH}" class="verify-form">
<label for="card-id">Card id: the first 16 hex characters of its sha256, or all 64</label>
<div class="row"><input id="card-id" name="id" type="text" inputmode="text" autocomplete="off" spellcheck="false" required pattern="[0-9a-f]{16}|[0-9a-f]{64}" aria-describedby="card-id-help" value="${o.id ?? ''}">
<button type="submit">Check this card</button></div>
<p id="card-id-help" class="note">Reads <code>/cards/&lt;id&gt;.json</code> from this origin. Card ids are listed in <a href="/cards/index.json"><code>/cards/index.json</code></a>.</p>
</form>
<form id="verify-paste" class="verify-form">
<label for="card-json">Or paste a card, or a cards bundle such as <a href="/cards-bundle.json"><code>/cards-bundle.json</code></a></label>
<textarea id="card-json" name="json" rows="6" spellcheck="false" autocomplete="off" aria-describedby="card-json-help"></textarea>
<p id="card-json-help" class="note">A card (<code>card-v1</code>), a bundle (<code>{"cards": [...]}</code>) or a list of cards. Nothing you paste leaves this browser.</p>
<div class="drop" id="drop-zone"><label for="card-file">Or choose or drop a card or bundle file (.json)</label>
<input id="card-file" name="file" type="file" accept=".json,application/json"></div>
<div class="row"><button type="submit" data-needs-script disabled>Check the pasted JSON</button>
<button type="button" id="verify-served" data-needs-script disabled>Check every published card</button></div>
</form>
</section>

<section aria-labelledby="h-result" class="verify-output">
<h2 id="h-result">Result</h2>
<div id="verify-result" aria-live="polite" data-state="idle"><p class="note">No card checked yet.<span class="needs-script"> The result appears here, with the reason for every check.</span></p></div>
</section>

<section aria-labelledby="h-jws">
<h2 id="h-jws">Check an offer or a receipt</h2>
<p>Offers (in a 402 challenge) and receipts (after payment) are compact JWS signed with EdDSA. The header's <code>kid</code> must name a key of this service's DID, in the DID document its DID's host serves; keys of any other DID are not fetched.</p>
<form id="verify-jws" class="verify-form">
<label for="jws-text">Compact JWS (three base64url parts separated by dots)</label>
<textarea id="jws-text" name="jws" rows="4" spellcheck="false" autocomplete="off"></textarea>
<div class="row"><button type="submit" data-needs-script disabled>Check the JWS</button></div>
</form>
<div id="jws-result" aria-live="polite" data-state="idle"></div>
</section>

<section aria-labelledby="h-tlog">
<h2 id="h-tlog">Check a card’s tlog-proof</h2>
<p>Every card the card log holds has a <a href="https://c2sp.org/tlog-proof">C2SP tlog-proof</a> at <code>/cards/&lt;id&gt;.tlog-proof</code>: its index in the log, the inclusion path, and the log’s checkpoint with the witness cosignatures recorded for it. It is checked offline: the script reads no log file, only the keys (the DID document at the DID’s host). The checkpoint must be signed by that document’s board key, never by a key the proof brings, and the path must lead from the card’s leaf to the checkpoint’s root. This page knows no witness keys, so cosignatures are listed, not counted (<code>gspc verify &lt;file&gt; --witness-key</code> counts them).</p>
<form id="verify-tlog" class="verify-form">
<label for="tlog-card">The card’s sha256 (all 64 hex characters)</label>
<div class="row"><input id="tlog-card" name="card" type="text" inputmode="text" autocomplete="off" spellcheck="false" required pattern="[0-9a-f]{64}"></div>
<label for="tlog-text">The tlog-proof, exactly as served (it ends with a newline)</label>
<textarea id="tlog-text" name="proof" rows="8" spellcheck="false" autocomplete="off"></textarea>
<div class="row"><button type="submit" data-needs-script disabled>Check the tlog-proof</button></div>
</form>
<div id="tlog-result" aria-live="polite" data-state="idle"></div>
</section>

<section aria-labelledby="h-what">
<h2 id="h-what">What is checked</h2>
<div class="table-wrap"><table class="verify-rules">
<caption>The checks of every card, in order (the same as <code>gspc verify</code> and <code>POST /api/verify</code>)</caption>
<thead><tr><th scope="col">Check</th><th scope="col">Passes when</th><th scope="col">Read from</th></tr></thead>
<tbody>${checkRows}</tbody>
</table></div>
<p>Before the cards, the script checks what they are checked against: the DID document at the DID's host lists Ed25519 keys, and this origin's own DID document and key transitions are that history or an earlier part of it (<code>key_anchor</code>), the root's signature verifies under the key its <code>kid</code> names, and the card log's checkpoint is signed by the board key with a size and root that recompute from every log entry. For a whole bundle it recomputes the root from the bundle's cards: when that equals the signed root and its signed <code>leaf_count</code>, every card of the bundle is under it; otherwise each card's inclusion proof is checked.</p>
<div class="table-wrap"><table class="verify-rules">
<caption>The checks of an offer or a receipt (the same as <code>POST /api/receipts/verify</code>)</caption>
<thead><tr><th scope="col">Result</th><th scope="col">When</th></tr></thead>
<tbody>${JWS_ROWS.map(([state, when]) => html`<tr><th scope="row"><span class="state state-${state}">${state}</span></th><td>${when}</td></tr>`)}</tbody>
</table></div>
</section>

<section aria-labelledby="h-without">
<h2 id="h-without">Check without this page</h2>
<p>Every file the check reads is public JSON on this origin:</p>
<ul class="verify-files">${SOURCE_FILES.map(([path, what]) => html`<li><a href="${path}"><code>${path}</code></a>: ${what}</li>`)}</ul>
<p>The command line checks the whole release (these files, and also the witness binding, the per-item manifest, and every card figure and board row re-derived from the per-item rows):</p>
<pre><code>gspc verify ${o.baseUrl}</code></pre>
</section>
</div>
${jsonIsland('verify-config', { id: o.error === undefined && o.card ? o.id : null })}`;
}

async function render(ctx: PageContext, url: string, reply: FastifyReply): Promise<void> {
  const req = readRequest(url);
  const [root, withdrawals] = await Promise.all([
    served<RootFacts>(ctx, '/root.json'),
    served<{ entries?: unknown[] }>(ctx, '/ledgers/withdrawals.json'),
  ]);
  const withdrawn = Array.isArray(withdrawals?.entries) ? withdrawals.entries.length : undefined;
  let status = req.kind === 'error' ? req.status : 200;
  let card: CardFacts | undefined;
  if (req.kind === 'ok' && req.id !== undefined) {
    card = await served<CardFacts>(ctx, `/cards/${req.id.slice(0, 16)}.json`);
    if (card && req.id.length === 64 && card.sha256 !== req.id) card = undefined;
    if (!card) status = 404;
  }
  const id = req.kind === 'ok' ? req.id : undefined;
  // The script reads the keys at the DID's host (issue 36): the one other origin it may connect to.
  const host = didHostBase(ctx.state.signingLive().did);
  reply
    .code(status)
    .headers({
      ...PAGE_HEADERS,
      ...(host !== undefined && {
        'content-security-policy': PAGE_CSP.replace("connect-src 'self'", `connect-src 'self' ${host}`),
      }),
    })
    .send(
      page({
        title: TITLE,
        path: PATH,
        description: DESCRIPTION,
        scripts: ['verify.js'],
        body: body({
          ...(id !== undefined && { id }),
          ...(card && { card }),
          ...(req.kind === 'error' && { error: req.message }),
          ...(root && { root }),
          ...(withdrawn !== undefined && { withdrawn }),
          baseUrl: ctx.baseUrl,
        }),
      }),
    );
}

export function registerVerifyPage(app: FastifyInstance, ctx: PageContext): void {
  app.get(PATH, async (req, reply) => render(ctx, req.url, reply));
}
