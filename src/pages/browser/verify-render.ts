/**
 * DOM rendering of the /gspc-verify results. Every value from a card, a file or a JWS is set as
 * text (textContent), never as markup. Tables follow the pages' rules: a caption, `scope` on
 * header cells, wrapped in .table-wrap so only the table scrolls on a phone (a focusable, named
 * region, so a keyboard can scroll it).
 */
import type { CardVerdict } from '../../core/verify/card-verifier.js';
import type { ContextCheck } from '../../core/verify/service-context.js';
import type { ReceiptVerification } from '../../core/crypto/jws-verifier.js';

/** Rows rendered for a bundle; every card is verified and counted, only the table is capped. */
export const MAX_BUNDLE_ROWS = 1000;

type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

const fmt = new Intl.NumberFormat('en-US');
export const count = (n: number) => fmt.format(n);
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

export function state(s: string): HTMLElement {
  return el('span', { class: `state state-${s}` }, s);
}

export function passCell(ok: boolean | null): HTMLTableCellElement {
  if (ok === null) return el('td', { class: 'check-note' }, 'note');
  return el('td', { class: `state state-${ok ? 'VALID' : 'INVALID'}` }, ok ? 'pass' : 'FAIL');
}

/** A verifier's check as a table row: its name, pass / FAIL / note, and its reason. */
export function checkRow(c: { check: string; ok: boolean | null; detail: string }): HTMLTableRowElement {
  return el(
    'tr',
    { 'data-check': c.check },
    el('th', { scope: 'row' }, el('code', {}, c.check)),
    passCell(c.ok),
    el('td', {}, c.detail),
  );
}

export function table(caption: string, head: string[], rows: HTMLTableRowElement[], cls = ''): HTMLElement {
  // A table that may scroll sideways on a phone is a region a keyboard can reach and scroll.
  return el(
    'div',
    { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption },
    el(
      'table',
      cls ? { class: cls } : {},
      el('caption', {}, caption),
      el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...rows),
    ),
  );
}

/** The context checks (DID document, root, log; for a bundle, the recomputed root). */
function contextTable(checks: readonly ContextCheck[]): HTMLElement {
  const failed = checks.filter((c) => c.ok === false).length;
  return el(
    'details',
    { class: 'verify-context', ...(failed > 0 && { open: '' }) },
    el(
      'summary',
      {},
      failed === 0
        ? 'Checked against: the DID document, the signed root and the card log (all pass)'
        : `Checked against: ${failed} of the service's checks FAIL`,
    ),
    table('What the cards were checked against', ['Check', 'Result', 'Reason'], checks.map(checkRow)),
  );
}

export function timing(ms: number, what: string): HTMLElement {
  return el(
    'p',
    { class: 'note verify-timing' },
    `${what} in ${seconds(ms)} in this browser (WebCrypto); nothing was sent to the server for checking.`,
  );
}

function cardLabel(card: unknown): { id: string; subject: string; axis: string } {
  const c = (card ?? {}) as Record<string, unknown>;
  const sha = typeof c.sha256 === 'string' ? c.sha256 : '';
  return {
    id: sha ? sha.slice(0, 16) : '(no id)',
    subject: typeof c.subject === 'string' ? c.subject : '',
    axis: typeof c.axis === 'string' ? c.axis : '',
  };
}

export function showBusy(box: HTMLElement, text: string): HTMLElement {
  const p = el('p', { class: 'note verify-progress' }, text);
  box.replaceChildren(p);
  box.dataset.state = 'busy';
  box.setAttribute('aria-busy', 'true');
  delete box.dataset.result;
  return p;
}

export function showError(box: HTMLElement, message: string): void {
  box.replaceChildren(el('p', { class: 'callout error', role: 'alert' }, message));
  box.dataset.state = 'error';
  box.removeAttribute('aria-busy');
  delete box.dataset.result;
}

export function finish(box: HTMLElement, result: string, ms: number, ...children: Child[]): void {
  box.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
  box.dataset.state = 'done';
  box.dataset.result = result;
  box.dataset.ms = ms.toFixed(1);
  box.removeAttribute('aria-busy');
  // The verdict heading takes the focus: it is read out, and scrolled into view on a phone.
  const heading = box.querySelector<HTMLElement>('h3.verdict');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus();
  }
}

export function showCard(
  box: HTMLElement,
  card: unknown,
  verdict: CardVerdict,
  checks: readonly ContextCheck[],
  ms: number,
  source: string,
): void {
  const { id, subject, axis } = cardLabel(card);
  const rows = verdict.checks.map(checkRow);
  finish(
    box,
    verdict.result,
    ms,
    el('h3', { class: 'verdict' }, `Card ${id}: `, state(verdict.result)),
    el(
      'p',
      {},
      [subject, axis].filter(Boolean).join(' on ') || 'A card without subject or axis',
      `. Source: ${source}.`,
    ),
    verdict.result !== 'VALID'
      ? el('p', { class: 'callout verify-reasons' }, `Why ${verdict.result}: ${verdict.reasons.join('; ')}.`)
      : null,
    table(`Checks of card ${id}: ${verdict.result}`, ['Check', 'Result', 'Reason'], rows, 'verify-checks'),
    contextTable(checks),
    timing(ms, 'Checked'),
  );
}

export function showBundle(
  box: HTMLElement,
  cards: readonly unknown[],
  verdicts: readonly CardVerdict[],
  checks: readonly ContextCheck[],
  ms: number,
  source: string,
): void {
  const valid = verdicts.filter((v) => v.result === 'VALID').length;
  // VALID cards under keys the DID's host did not anchor (issue 36): never counted as VALID.
  const unverifiable = verdicts.filter((v) => v.result === 'UNVERIFIABLE_KEY').length;
  const invalid = verdicts.length - valid - unverifiable;
  const overall = invalid > 0 ? 'INVALID' : unverifiable > 0 ? 'UNVERIFIABLE_KEY' : 'VALID';
  // INVALID cards first, so a capped table still shows every failure it can.
  const order = verdicts
    .map((_, i) => i)
    .sort((a, b) => Number(verdicts[a]!.result === 'VALID') - Number(verdicts[b]!.result === 'VALID'));
  const shown = order.slice(0, MAX_BUNDLE_ROWS);
  const rows = shown.map((i) => {
    const v = verdicts[i]!;
    const { id, subject, axis } = cardLabel(cards[i]);
    return el(
      'tr',
      { 'data-result': v.result },
      el('th', { scope: 'row' }, el('code', {}, id)),
      el('td', {}, subject),
      el('td', {}, axis),
      el('td', { class: `state state-${v.result}` }, v.result),
      el('td', {}, v.result === 'VALID' ? `all ${v.checks.length} checks pass` : v.reasons.join('; ')),
    );
  });
  const summary = el(
    'p',
    {
      class: 'verify-summary',
      'data-checked': String(verdicts.length),
      'data-valid': String(valid),
      'data-invalid': String(invalid),
      'data-unverifiable': String(unverifiable),
    },
    el('strong', {}, count(verdicts.length)),
    ` card${verdicts.length === 1 ? '' : 's'} checked: `,
    el('strong', { class: 'state state-VALID' }, `${count(valid)} VALID`),
    ', ',
    el('strong', { class: `state ${invalid > 0 ? 'state-INVALID' : ''}` }, `${count(invalid)} INVALID`),
    ...(unverifiable > 0
      ? [', ', el('strong', { class: 'state state-UNVERIFIABLE_KEY' }, `${count(unverifiable)} UNVERIFIABLE_KEY`)]
      : []),
    '.',
  );
  finish(
    box,
    overall,
    ms,
    el('h3', { class: 'verdict' }, `Bundle: `, state(overall)),
    el('p', {}, `Source: ${source}.`),
    summary,
    contextTable(checks),
    shown.length < verdicts.length
      ? el(
          'p',
          { class: 'note' },
          `The table shows ${count(shown.length)} of the ${count(verdicts.length)} cards (INVALID ones first); every card was checked and counted above.`,
        )
      : null,
    table(
      `Every card of the bundle: ${count(valid)} VALID, ${count(invalid)} INVALID${unverifiable > 0 ? `, ${count(unverifiable)} UNVERIFIABLE_KEY` : ''}`,
      ['Card', 'Subject', 'Axis', 'Result', 'Reason'],
      rows,
      'verify-bundle',
    ),
    timing(ms, `${count(verdicts.length)} cards checked`),
  );
}

/** What a verified offer or receipt proves, in words: an offer is never read as a payment. */
const KIND_WORDS: Record<string, string> = {
  offer:
    'This is an offer: the terms stated before payment (a 402 challenge carries one). It proves no payment; only a receipt does.',
  receipt: 'This is a receipt: the service states that the payer below paid for the resource below.',
};

export function showJws(box: HTMLElement, v: ReceiptVerification, ms: number, kind?: string): void {
  const h: Record<string, unknown> = v.header ?? {};
  const headRows = (['alg', 'kid', 'typ'] as const)
    .filter((k) => h[k] !== undefined)
    .map((k) =>
      el('tr', {}, el('th', { scope: 'row' }, el('code', {}, k)), el('td', {}, el('code', {}, String(h[k])))),
    );
  finish(
    box,
    v.result,
    ms,
    el(
      'h3',
      { class: 'verdict' },
      v.result === 'VALID' && kind !== undefined && kind !== 'unknown' ? `JWS (${kind}): ` : 'JWS: ',
      state(v.result),
    ),
    el('p', { class: 'verify-jws-reason' }, `Reason: ${v.reason}.`),
    v.result === 'VALID' && kind !== undefined && KIND_WORDS[kind] !== undefined
      ? el('p', { class: 'verify-jws-kind', 'data-kind': kind }, KIND_WORDS[kind])
      : null,
    headRows.length > 0 ? table('Protected header', ['Parameter', 'Value'], headRows) : null,
    v.result === 'VALID'
      ? el(
          'div',
          {},
          el('p', {}, 'Signed payload (shown only because the signature verifies):'),
          el('pre', { class: 'verify-payload' }, JSON.stringify(v.payload, null, 2)),
        )
      : null,
    timing(ms, 'Checked'),
  );
}
