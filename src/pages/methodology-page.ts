/**
 * GET /methodology (specification, "Endpoints": pages; issue 7): how every board number is made,
 * rendered from docs/methodology.md (read once, when the first app registers the page), with a
 * "Live counts" section quoting the totals of the board this server is serving at request time.
 * No number on the page is typed: the document states rules, the counts come from the served
 * board bytes (the same bytes GET /api/gspc answers).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { BoardResponse } from '../core/board/board.js';
import type { Prepared } from '../serve/prepared-bytes.js';
import { readQuery } from '../serve/query.js';
import { html, type SafeHtml } from './html.js';
import { page, PAGE_HEADERS } from './layout.js';
import { renderMethodology, type MethodologyDoc, type TocEntry } from './methodology-doc.js';
import type { PageContext } from './page-context.js';

/** The package ships docs/ (package.json "files"); from src/pages/ and dist/pages/ alike it is ../../docs. */
export const METHODOLOGY_PATH = fileURLToPath(new URL('../../docs/methodology.md', import.meta.url));

let loaded: { doc: MethodologyDoc } | { error: string } | undefined;

/** The rendered document, read and rendered once per process (every app shares it). */
export function methodologyDoc(path = METHODOLOGY_PATH): { doc: MethodologyDoc } | { error: string } {
  if (path !== METHODOLOGY_PATH) return readDoc(path);
  return (loaded ??= readDoc(path));
}

function readDoc(path: string): { doc: MethodologyDoc } | { error: string } {
  try {
    return { doc: renderMethodology(readFileSync(path, 'utf8')) };
  } catch (err) {
    return { error: `docs/methodology.md could not be read (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})` };
  }
}

// The board is parsed once per served board (a new release or live state brings new bytes).
const parsed = new WeakMap<Prepared, BoardResponse>();
function servedBoard(ctx: PageContext): BoardResponse {
  const prepared = ctx.state.current().boards.get('')!;
  let board = parsed.get(prepared);
  if (!board) {
    board = JSON.parse(prepared.body.toString('utf8')) as BoardResponse;
    parsed.set(prepared, board);
  }
  return board;
}

export function registerMethodologyPage(app: FastifyInstance, ctx: PageContext): void {
  const source = methodologyDoc();
  if ('error' in source) app.log.error(source.error);
  app.get('/methodology', (req, reply) => {
    readQuery(req.url, []);
    if ('error' in source) {
      reply
        .code(500)
        .headers(PAGE_HEADERS)
        .send(
          page({
            title: 'Methodology',
            path: '/methodology',
            description: 'How every board number is made.',
            body: html`<h1>Methodology</h1><p class="callout">This server cannot show the methodology: ${source.error}. The rules ship with the package as docs/methodology.md; the board itself is at <a href="/api/gspc">/api/gspc</a>.</p>`,
          }),
        );
      return;
    }
    const { doc } = source;
    const current = ctx.state.current();
    const board = servedBoard(ctx);
    const body = html`<div class="page-methodology">
<h1>${doc.titleHtml}</h1>
${doc.intro}
${contents(doc.toc)}
${liveCounts(board, { id: current.release.id, as_of: current.release.descriptor.as_of })}
<div class="methodology-doc">
${doc.body}
</div>
</div>`;
    reply.headers(PAGE_HEADERS).send(
      page({
        title: doc.title,
        path: '/methodology',
        description:
          'How every number on the GSPC board is made: grading, Wilson intervals, exact McNemar separation, totals; with the live counts of the served board.',
        body,
      }),
    );
  });
}

function contents(toc: readonly TocEntry[]): SafeHtml {
  const entries: TocEntry[] = [{ id: 'live-counts', html: html`Live counts`, depth: 2 }, ...toc];
  // Nested lists for level-3 headings and below, under the section before them.
  const items: SafeHtml[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.depth > 2) continue;
    const children: TocEntry[] = [];
    for (let j = i + 1; j < entries.length && entries[j]!.depth > 2; j++) children.push(entries[j]!);
    items.push(
      html`<li><a href="#${e.id}">${e.html}</a>${children.length > 0 ? html`<ul>${children.map((c) => html`<li><a href="#${c.id}">${c.html}</a></li>`)}</ul>` : ''}</li>`,
    );
  }
  return html`<nav class="toc" aria-labelledby="contents"><h2 id="contents">Contents</h2><ul>${items}</ul></nav>`;
}

/** A JSON field name that may wrap after each `_` or `.` (never inside a word) on a narrow screen. */
function fieldName(name: string): SafeHtml {
  return html`<code class="field">${name.split(/(?<=[_.])/).map((part, i) => html`${i > 0 ? html`<wbr>` : ''}${part}`)}</code>`;
}

function liveCounts(board: BoardResponse, release: { id: string; as_of: string }): SafeHtml {
  const totals = Object.entries(board.totals as unknown as Record<string, unknown>);
  const numbers = totals.filter(([, v]) => typeof v === 'number') as [string, number][];
  // The sentences built from the counts; count_grammar (how to read them all) comes after the tables.
  const sentences = totals.filter(([k, v]) => typeof v === 'string' && k !== 'count_grammar') as [string, string][];
  const grammar = board.totals.count_grammar;
  const m = board.measured_on;
  return html`<section class="live-counts" aria-labelledby="live-counts">
<h2 id="live-counts">Live counts</h2>
<p>Quoted from the board this server is serving now (<a href="/api/gspc">/api/gspc</a>, release <code data-release="id">${release.id}</code> as of <time datetime="${release.as_of}">${release.as_of}</time>), read when this page was requested: reload for the current figures. The rules that make them are in <a href="#contents">the sections listed above</a>.</p>
<dl class="live-sentences">
${sentences.map(([k, v]) => html`<dt>${fieldName(`totals.${k}`)}</dt><dd data-total="${k}">${v}</dd>`)}
</dl>
<div class="table-wrap"><table class="live-totals">
<caption>Board totals (<code>totals</code> of /api/gspc)</caption>
<thead><tr><th scope="col">field</th><th scope="col" class="num">value</th></tr></thead>
<tbody>
${numbers.map(([k, v]) => html`<tr><th scope="row">${fieldName(k)}</th><td class="num" data-total="${k}">${String(v)}</td></tr>`)}
</tbody></table></div>
<div class="table-wrap"><table class="live-measured-on">
<caption>What the board was measured on (<code>measured_on</code> of /api/gspc)</caption>
<thead><tr><th scope="col">field</th><th scope="col">value</th></tr></thead>
<tbody>
<tr><th scope="row">${fieldName('peritem_sha256')}</th><td><code class="hash" data-measured-on="peritem_sha256">${m.peritem_sha256}</code> — the SHA-256 of <a href="/peritem/manifest.json">/peritem/manifest.json</a>, which lists every per-item file with its own SHA-256</td></tr>
<tr><th scope="row">${fieldName('peritem_rows')}</th><td data-measured-on="peritem_rows">${String(m.peritem_rows)}</td></tr>
<tr><th scope="row">${fieldName('living_stamp.verification_state')}</th><td><span class="state state-${m.living_stamp.verification_state}" data-measured-on="living_stamp.verification_state">${m.living_stamp.verification_state}</span>${m.living_stamp.reason !== undefined ? html`: ${m.living_stamp.reason}` : ''}</td></tr>
<tr><th scope="row">${fieldName('date')}</th><td>${m.date}</td></tr>
</tbody></table></div>
${typeof grammar === 'string' ? html`<p class="note"><span class="grammar-label">How to read these counts (${fieldName('totals.count_grammar')}):</span> <span data-total="count_grammar">${grammar}</span></p>` : ''}
</section>`;
}
