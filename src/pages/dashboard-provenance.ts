/**
 * The dashboard's *provenance* tab: the signed public root (`/root.json`) and the state of its
 * signature, the witness states of `/interop/root-witness-latest.json`, the card matrix counts
 * (`/signed/card-matrix.json`, with cells per axis as a bar plot), the withdrawal and
 * supersession ledgers, and the corrections ledger (`/api/corrections`).
 */
import { breakable, cardTable, type Column } from './card-table.js';
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';
import type { ProvenanceIsland } from './dashboard-islands.js';
import { duration, numCell, plotFigure, readJson, stateSpan, textCell, unread, type Read } from './dashboard-format.js';
import type { FabricDocument } from './dashboard-compute.js';

interface RootRecord {
  merkle_root: string;
  leaf_count: number;
  as_of: string;
  kid: string;
  did_intended: string;
  bound_digest: string;
  sig_ed25519: string | null;
  unsigned_reason?: string;
}
interface Witness {
  schema: string;
  root_sha256: string;
  root_bytes: number;
  merkle_root: string;
  leaf_count: number;
  as_of: string;
  witnesses: {
    witness: string;
    state: string;
    evidence_sha256: string | null;
    evidence_bytes: number | null;
    note: string;
  }[];
  note?: string;
}
export interface CardMatrix {
  counts: { cells: number; cells_with_outer_signatures: number; models: number; represented_axes: number };
  cells: { subject: string; axis: string; signed: boolean }[];
}
interface Ledger {
  entries: { subject?: string; axis?: string; reason?: string; url?: string }[];
}
interface Latency {
  kind: string;
  seconds: number | null;
  upper_bound_seconds: number | null;
  lower_bound_seconds: number | null;
  basis?: string;
  reason?: string;
}
interface Corrections {
  ledger_published: boolean;
  reason?: string;
  publisher: string | null;
  signature: { state: string; kid: string | null; signed_at: string | null; reason: string };
  corrections: {
    id: string;
    date: string;
    status: string;
    detected_by: string;
    reached_the_public: boolean;
    what_was_wrong: string;
    correction_latency: Latency;
  }[];
}

const WITNESS_COLUMNS: Column[] = [
  { label: 'Witness' },
  { label: 'State' },
  { label: 'Evidence SHA-256' },
  { label: 'Evidence bytes', num: true },
  { label: 'Note' },
];

const CORRECTION_COLUMNS: Column[] = [
  { label: 'Entry' },
  { label: 'Status' },
  { label: 'Detected by' },
  { label: 'Reached the public' },
  { label: 'Latency kind' },
  { label: 'Latency, seconds (upper bound)', num: true },
  { label: 'Latency' },
  { label: 'What was wrong' },
];

/** Cells per axis of the served card matrix, in first-seen order (the bar plot's values). */
export function cellsPerAxis(m: CardMatrix): { axis: string; cells: number }[] {
  const by = new Map<string, number>();
  for (const c of m.cells) by.set(c.axis, (by.get(c.axis) ?? 0) + 1);
  return [...by].map(([axis, cells]) => ({ axis, cells }));
}

async function rootBlock(ctx: PageContext): Promise<SafeHtml> {
  const root = await readJson<RootRecord>(ctx, '/root.json');
  if (!root.ok) return unread('The public root', root.reason);
  const r = root.value;
  const own = await ctx.state.current().verification();
  const fabric = await readJson<FabricDocument>(ctx, '/api/capability-fabric');
  const rail = fabric.ok ? fabric.value.rails.find((x) => x.id === 'public-root') : undefined;
  const serverCheck = r.sig_ed25519 === null ? 'UNSIGNED' : own.rootSignatureValid ? 'VALID' : 'INVALID';
  return html`<dl class="dash-facts" id="dash-root">
<dt>Merkle root</dt><dd><code data-field="merkle_root">${r.merkle_root}</code></dd>
<dt>Leaf count</dt><dd data-field="leaf_count">${r.leaf_count}</dd>
<dt>As of</dt><dd data-field="as_of">${r.as_of}</dd>
<dt>Signing key</dt><dd><code data-field="kid">${r.kid}</code></dd>
<dt>Signature</dt><dd data-field="signature">${r.sig_ed25519 === null ? html`none: ${r.unsigned_reason ?? ''}` : 'Ed25519 present'}; the service's own check against its DID document: ${stateSpan(serverCheck)}</dd>
<dt>Public-root rail</dt><dd data-field="rail">${rail ? html`${stateSpan(rail.state)}${rail.last_error ? html` (${rail.last_error})` : ''}` : fabric.ok ? 'not listed' : fabric.reason} <span class="note">(the capability fabric's observation of <code>/root.json</code>)</span></dd>
</dl>
<p class="note">Check it yourself: <a href="/gspc-verify">verify a card in your browser</a> against this root, or read <a href="/root.json">/root.json</a> and <a href="/.well-known/did.json">the DID document</a>.</p>`;
}

async function witnessBlock(ctx: PageContext): Promise<SafeHtml> {
  const w = await readJson<Witness>(ctx, '/interop/root-witness-latest.json');
  if (!w.ok) return unread('The witness record', w.reason);
  const v = w.value;
  return html`<p>The witness record binds root bytes <code data-field="root_sha256">${v.root_sha256}</code> (<span data-field="root_bytes">${v.root_bytes}</span> bytes), Merkle root and count <span data-field="leaf_count">${v.leaf_count}</span>, as of <span data-field="as_of">${v.as_of}</span>. ${v.note ?? ''}</p>
${cardTable(
  'dash-witnesses',
  html`Independent witness states of the root (<a href="/interop/root-witness-latest.json">/interop/root-witness-latest.json</a>)`,
  WITNESS_COLUMNS,
  v.witnesses.map((x) => ({
    attrs: html` data-id="${x.witness}"`,
    cells: [
      html`<th scope="row">${breakable(x.witness)}</th>`,
      html`<td data-field="state">${stateSpan(x.state)}</td>`,
      html`<td>${x.evidence_sha256 ? html`<code>${x.evidence_sha256}</code>` : '—'}</td>`,
      numCell(x.evidence_bytes),
      textCell(x.note),
    ],
  })),
)}`;
}

function matrixBlock(
  m: CardMatrix,
  per: { axis: string; cells: number }[],
  withdrawn: Read<Ledger>,
  superseded: Read<Ledger>,
): SafeHtml {
  const c = m.counts;
  return html`<div class="table-wrap"><table id="dash-matrix-counts" class="dash-table">
<caption>Card matrix counts (<a href="/signed/card-matrix.json">/signed/card-matrix.json</a>) and the ledgers</caption>
<thead><tr><th scope="col">Count</th><th scope="col" class="num">Value</th></tr></thead>
<tbody>
<tr data-id="cells"><th scope="row">Cells (active signed cards)</th>${numCell(c.cells)}</tr>
<tr data-id="cells_with_outer_signatures"><th scope="row">Cells with outer signatures</th>${numCell(c.cells_with_outer_signatures)}</tr>
<tr data-id="models"><th scope="row">Models</th>${numCell(c.models)}</tr>
<tr data-id="represented_axes"><th scope="row">Represented axes</th>${numCell(c.represented_axes)}</tr>
<tr data-id="withdrawals"><th scope="row"><a href="/ledgers/withdrawals.json">Withdrawals</a> (refused at birth: never counted, never rooted)</th>${withdrawn.ok ? numCell(withdrawn.value.entries.length) : html`<td class="num" data-value="">${withdrawn.reason}</td>`}</tr>
<tr data-id="supersessions"><th scope="row"><a href="/ledgers/supersessions.json">Supersessions</a></th>${superseded.ok ? numCell(superseded.value.entries.length) : html`<td class="num" data-value="">${superseded.reason}</td>`}</tr>
</tbody></table></div>
${plotFigure('plot-provenance', `Bar plot: signed cells per axis in the card matrix (${per.length} axes, ${c.cells} cells).`, 'dash-matrix-axes')}
<div class="table-wrap"><table id="dash-matrix-axes" class="dash-table">
<caption>Cells per axis in the card matrix (the plot's values)</caption>
<thead><tr><th scope="col">Axis</th><th scope="col" class="num">Cells</th></tr></thead>
<tbody>${per.map((p) => html`<tr data-id="${p.axis}"><th scope="row">${p.axis}</th>${numCell(p.cells)}</tr>`)}</tbody></table></div>
${
  withdrawn.ok && withdrawn.value.entries.length > 0
    ? html`<div class="table-wrap"><table id="dash-withdrawals" class="dash-table">
<caption>Withdrawn cards (listed apart, never in the counts)</caption>
<thead><tr><th scope="col">Card</th><th scope="col">Axis</th><th scope="col">Reason</th></tr></thead>
<tbody>${withdrawn.value.entries.map((e) => html`<tr><th scope="row">${e.url ? html`<a href="${e.url}">${e.subject ?? e.url}</a>` : (e.subject ?? '—')}</th>${textCell(e.axis)}${textCell(e.reason)}</tr>`)}</tbody></table></div>`
    : ''
}`;
}

function latencyText(l: Latency): string {
  if (l.kind === 'EXACT' && l.seconds !== null) return duration(l.seconds);
  if (l.kind === 'UPPER_BOUND' && l.upper_bound_seconds !== null)
    return `at most ${duration(l.upper_bound_seconds)}${l.lower_bound_seconds !== null ? `, at least ${duration(l.lower_bound_seconds)}` : ''}`;
  return l.reason ?? 'not measured';
}

async function correctionsBlock(ctx: PageContext): Promise<SafeHtml> {
  const c = await readJson<Corrections>(ctx, '/api/corrections');
  if (!c.ok) return unread('The corrections ledger', c.reason);
  const v = c.value;
  if (!v.ledger_published)
    return html`<p class="note" id="dash-no-corrections">${v.reason ?? 'No corrections ledger is published.'}</p>`;
  return html`<p>Publisher: ${v.publisher ?? '—'}. <span data-field="corrections_count">${v.corrections.length}</span> entries; ledger signature ${stateSpan(v.signature.state)} <span class="note">(${v.signature.reason})</span>. The latency is computed per request from the recorded times, outside any signature.</p>
${cardTable(
  'dash-corrections',
  html`Corrections (<a href="/api/corrections">/api/corrections</a>): status and correction latency (detection to publication)`,
  CORRECTION_COLUMNS,
  v.corrections.map((e) => ({
    attrs: html` data-id="${e.id}"`,
    cells: [
      html`<th scope="row"><a href="/corrections/${e.id}.json">${breakable(e.id)}</a><br><span class="note">${e.date}</span></th>`,
      html`<td data-field="status">${e.status}</td>`,
      textCell(e.detected_by),
      html`<td>${e.reached_the_public ? 'yes' : 'no'}</td>`,
      html`<td data-field="latency_kind">${stateSpan(e.correction_latency.kind)}</td>`,
      numCell(e.correction_latency.upper_bound_seconds),
      html`<td>${latencyText(e.correction_latency)}</td>`,
      textCell(e.what_was_wrong),
    ],
  })),
)}`;
}

export async function provenanceTab(ctx: PageContext): Promise<{ body: SafeHtml; island: ProvenanceIsland | null }> {
  const [matrix, withdrawn, superseded] = await Promise.all([
    readJson<CardMatrix>(ctx, '/signed/card-matrix.json'),
    readJson<Ledger>(ctx, '/ledgers/withdrawals.json'),
    readJson<Ledger>(ctx, '/ledgers/supersessions.json'),
  ]);
  const per = matrix.ok ? cellsPerAxis(matrix.value) : null;
  const body = html`<h2 id="root-heading">Signed public root</h2>
${await rootBlock(ctx)}
<h2 id="witness-heading">Witnesses</h2>
${await witnessBlock(ctx)}
<h2 id="matrix-heading">Card matrix</h2>
${matrix.ok ? matrixBlock(matrix.value, per!, withdrawn, superseded) : unread('The card matrix', matrix.reason)}
<h2 id="corrections-heading">Corrections</h2>
${await correctionsBlock(ctx)}`;
  return { body, island: per ? { tab: 'provenance', cellsPerAxis: per } : null };
}
