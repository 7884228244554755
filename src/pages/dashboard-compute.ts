/**
 * The dashboard's *compute* tab: the model-hub census of `GET /api/compute` (a catalogued
 * listing: every id DISCOVERED, none MEASURED) and the capability fabric's rail states
 * (`GET /api/capability-fabric`: each rail's observed state, last error and freshness, with the
 * count of rails per state as a bar plot). Presentation only: a listing is never a measurement.
 */
import { breakable, cardTable, type Column } from './card-table.js';
import { html, type SafeHtml } from './html.js';
import type { PageContext } from './page-context.js';
import type { ComputeIsland } from './dashboard-islands.js';
import { numCell, plotFigure, readJson, stateSpan, textCell, unread } from './dashboard-format.js';

interface Census {
  kind: string;
  source: string;
  as_of: string;
  as_of_field: string;
  n_unique_ids: number;
  n_measured: number;
  listing_state_all: string;
  status_all: string;
  complete: boolean;
  complete_reason: string;
  pages_done: number;
  sha256_jsonl: string;
  note: string;
}
interface ComputeBridge {
  schema: string;
  contract: { ruling: string };
  census: Census | null;
  census_unread_reason?: string;
  agui: { configured: boolean; hint: string };
}

export interface Rail {
  id: string;
  label: string;
  endpoint: string | null;
  state: string;
  summary: string;
  freshness_seconds: number | null;
  last_error: string | null;
  observed_at: string | null;
  writes_board: boolean;
}
export interface FabricDocument {
  schema: string;
  observed_at: string;
  rails: Rail[];
  action_contract?: { policy?: { mode: string; execution_enabled: boolean; reason: string } };
}

/** Rails per state, in the order the states first appear (the bar plot's values). */
export function railStates(rails: readonly Rail[]): { state: string; rails: number }[] {
  const by = new Map<string, number>();
  for (const r of rails) by.set(r.state, (by.get(r.state) ?? 0) + 1);
  return [...by].map(([state, n]) => ({ state, rails: n }));
}

function censusBlock(b: ComputeBridge): SafeHtml {
  const c = b.census;
  if (c === null)
    return html`<p class="note" id="dash-no-census">No census is published: ${b.census_unread_reason ?? ''}</p>`;
  return html`<div class="table-wrap"><table id="dash-census" class="dash-table">
<caption>Model-hub census (<a href="/api/compute">/api/compute</a>, <code>census</code>): a catalogued listing, not a measurement</caption>
<thead><tr><th scope="col">Field</th><th scope="col">Value</th></tr></thead>
<tbody>
<tr data-id="kind"><th scope="row">Kind</th><td>${c.kind}</td></tr>
<tr data-id="n_unique_ids"><th scope="row">Unique model ids listed</th>${numCell(c.n_unique_ids)}</tr>
<tr data-id="n_measured"><th scope="row">Of them measured</th>${numCell(c.n_measured)}</tr>
<tr data-id="listing_state_all"><th scope="row">Listing state (every id)</th><td>${stateSpan(c.listing_state_all)}</td></tr>
<tr data-id="status_all"><th scope="row">Board status (every id)</th><td>${stateSpan(c.status_all)}</td></tr>
<tr data-id="complete"><th scope="row">Listing complete</th><td>${c.complete ? 'yes' : 'no'}<br><span class="note">${c.complete_reason}</span></td></tr>
<tr data-id="pages_done"><th scope="row">Listing pages read</th>${numCell(c.pages_done)}</tr>
<tr data-id="as_of"><th scope="row">As of (<code>${c.as_of_field}</code>)</th><td>${c.as_of}</td></tr>
<tr data-id="source"><th scope="row">Source</th><td>${c.source}</td></tr>
<tr data-id="sha256_jsonl"><th scope="row">SHA-256 of the listing</th><td><code>${c.sha256_jsonl}</code></td></tr>
</tbody></table></div>
<p class="note">${c.note}</p>
<p class="note" id="dash-agui">AG-UI provider wire: ${b.agui.configured ? 'configured' : 'not configured'}. ${b.agui.hint}</p>`;
}

const RAIL_COLUMNS: Column[] = [
  { label: 'Rail' },
  { label: 'Endpoint' },
  { label: 'State' },
  { label: 'Last error' },
  { label: 'Freshness, seconds', num: true },
  { label: 'Observed at' },
  { label: 'Writes the board' },
];

function fabricBlock(f: FabricDocument, states: { state: string; rails: number }[]): SafeHtml {
  const policy = f.action_contract?.policy;
  return html`<p>Observed at <span data-field="fabric_observed_at">${f.observed_at}</span>: ${f.rails.length} rails, each state observed by a probe of this service's own origin, never declared. Every rail writes nothing to the board.${policy ? html` Actions: ${policy.mode}, execution ${policy.execution_enabled ? 'enabled' : 'disabled'}.` : ''}</p>
${plotFigure('plot-compute', `Bar plot: number of capability-fabric rails in each observed state (${f.rails.length} rails).`, 'dash-rail-states')}
<div class="table-wrap"><table id="dash-rail-states" class="dash-table">
<caption>Rails per state (the plot's values)</caption>
<thead><tr><th scope="col">State</th><th scope="col" class="num">Rails</th></tr></thead>
<tbody>${states.map((s) => html`<tr data-id="${s.state}"><th scope="row">${stateSpan(s.state)}</th>${numCell(s.rails)}</tr>`)}</tbody></table></div>
${cardTable(
  'dash-rails',
  html`Capability fabric rails (<a href="/api/capability-fabric">/api/capability-fabric</a>): state, last error and freshness`,
  RAIL_COLUMNS,
  f.rails.map((r) => ({
    attrs: html` data-id="${r.id}"`,
    cells: [
      html`<th scope="row">${breakable(r.id)}<br><span class="note">${r.label}</span></th>`,
      html`<td>${r.endpoint ? html`<code>${r.endpoint}</code>` : 'none'}</td>`,
      html`<td data-field="state">${stateSpan(r.state)}</td>`,
      html`<td data-field="last_error">${r.last_error ?? '—'}</td>`,
      numCell(r.freshness_seconds),
      textCell(r.observed_at),
      html`<td>${r.writes_board ? 'yes' : 'no'}</td>`,
    ],
  })),
)}`;
}

export async function computeTab(ctx: PageContext): Promise<{ body: SafeHtml; island: ComputeIsland | null }> {
  const [bridge, fabric] = await Promise.all([
    readJson<ComputeBridge>(ctx, '/api/compute'),
    readJson<FabricDocument>(ctx, '/api/capability-fabric'),
  ]);
  const states = fabric.ok ? railStates(fabric.value.rails) : null;
  const body = html`<h2 id="census-heading">Compute census</h2>
${bridge.ok ? html`<p class="callout" id="dash-ruling">${bridge.value.contract.ruling}</p>${censusBlock(bridge.value)}` : html`<p class="note">A listing is never a measurement.</p>${unread('The compute bridge', bridge.reason)}`}
<h2 id="fabric-heading">Capability fabric rails</h2>
${fabric.ok ? fabricBlock(fabric.value, states!) : unread('The capability fabric', fabric.reason)}`;
  return { body, island: states ? { tab: 'compute', states } : null };
}
