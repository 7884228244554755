/**
 * The compute bridge document `svc.compute-bridge/1` (specification, "Compute bridge"): a
 * catalogued census of model-hub listings, an unconfigured AG-UI provider wire, the terminal
 * functions, the pod inventory kind and the OS doors. Pure: the census arrives already counted
 * from the corpus (src/corpus/status/census.ts). A listing is DISCOVERED, never MEASURED.
 */

export const COMPUTE_BRIDGE_SCHEMA = 'svc.compute-bridge/1';
/** The corpus files the census is catalogued in (docs/formats.md §7). */
export const CENSUS_META_PATH = 'status/census.json';
export const CENSUS_JSONL_PATH = 'status/census.jsonl';

export const TERMINAL_FNS = ['VERIFY', 'BOARD', 'AXIS', 'CENSUS', 'CORRECT', 'WATCH', 'COMPUTE', 'HELP'] as const;
export const OS_DOORS = ['board', 'verify', 'space', 'assess', 'harness'] as const;
/** What the bridge never presents as established (specification, `contract.never[]`). */
export const CONTRACT_NEVER = [
  'MEASURED',
  'a fused grade',
  'a remembered host address as established',
  'a live probe copied onto the state endpoint',
] as const;

/**
 * A catalogued census as read from the corpus: the operator's `status/census.json` fields and
 * what was computed from the bytes of `status/census.jsonl` (never typed by the operator).
 */
export interface CatalogueCensus {
  /** Text naming the hub listing API the snapshot was taken from; the service never fetches it. */
  source: string;
  as_of: string;
  /** The listing field `as_of` was read from (its latest value over the listing). */
  as_of_field: string;
  pages_done: number;
  complete: boolean;
  complete_reason: string;
  note: string;
  /** Computed at corpus load from the JSONL bytes. */
  jsonl: { path: string; sha256: string; lines: number; n_unique_ids: number };
}

export interface CensusBlock {
  kind: 'catalogued';
  source: string;
  as_of: string;
  as_of_field: string;
  n_unique_ids: number;
  n_measured: 0;
  listing_state_all: 'DISCOVERED';
  status_all: 'UNMEASURED';
  complete: boolean;
  complete_reason: string;
  pages_done: number;
  sha256_jsonl: string;
  note: string;
}

export interface ComputeBridgeDocument {
  schema: typeof COMPUTE_BRIDGE_SCHEMA;
  title: string;
  contract: { ruling: string; quote_census_from: string; quote_agui_from: string; never: string[]; owner_gate: string };
  /** null: no census is catalogued in the corpus; `census_unread_reason` says why. */
  census: CensusBlock | null;
  census_unread_reason?: string;
  agui: { configured: false; status: 'unconfigured'; http: null; hint: string; target: null };
  terminal: { terminal_fns: string[]; ruling: string; census_fn: string };
  pod: { inventory_kind: 'unmeasured'; note: string };
  os: { doors: string[]; harness: string; view_only: true };
}

export const CENSUS_ABSENT_REASON = `no catalogued census in the corpus: ${CENSUS_META_PATH} and ${CENSUS_JSONL_PATH} are absent, so nothing was listed (an unread census, not an empty one)`;

function censusBlock(c: CatalogueCensus): CensusBlock {
  return {
    kind: 'catalogued',
    source: c.source,
    as_of: c.as_of,
    as_of_field: c.as_of_field,
    n_unique_ids: c.jsonl.n_unique_ids,
    // A listing is never a measurement: the count is a constant of the kind, not a tally.
    n_measured: 0,
    listing_state_all: 'DISCOVERED',
    status_all: 'UNMEASURED',
    complete: c.complete,
    complete_reason: c.complete_reason,
    pages_done: c.pages_done,
    sha256_jsonl: c.jsonl.sha256,
    note: c.note,
  };
}

/**
 * Builds the compute bridge document from the corpus's census (absent: `census` is null with
 * `census_unread_reason`, so the catalogue action's output requirement honestly fails).
 * A function of the release only: no clock, no configured source, no probe.
 */
export function buildComputeBridge(census: CatalogueCensus | undefined): ComputeBridgeDocument {
  const quoteCensus = census
    ? `GET /api/compute → census: a catalogued snapshot of ${census.jsonl.lines} listing line(s) (${census.jsonl.path}); quote n_unique_ids with sha256_jsonl and as_of`
    : 'GET /api/compute → census: none is catalogued in this release, so there is nothing to quote';
  return {
    schema: COMPUTE_BRIDGE_SCHEMA,
    title: 'Compute bridge: a catalogued model-hub census, no provider wire, no measurement',
    contract: {
      ruling:
        'A listing is DISCOVERED, never MEASURED: the census counts model ids a hub listed and grades none of them; measurements come only from the board.',
      quote_census_from: quoteCensus,
      quote_agui_from:
        'GET /api/compute → agui (no AG-UI provider wire is configured; GET /api/agui/gspc-state is a presentation stream of the board and proves no provider execution)',
      never: [...CONTRACT_NEVER],
      owner_gate:
        'Provider execution, pod execution and the AG-UI provider wire stay off until the owner configures an adapter; nothing a caller sends can turn them on, and this document never does.',
    },
    census: census ? censusBlock(census) : null,
    ...(!census && { census_unread_reason: CENSUS_ABSENT_REASON }),
    agui: {
      configured: false,
      status: 'unconfigured',
      http: null,
      hint: 'No AG-UI provider wire is configured, so no provider output is streamed or observed here; the board itself is readable at GET /api/gspc.',
      target: null,
    },
    terminal: {
      terminal_fns: [...TERMINAL_FNS],
      ruling:
        'The terminal is a view over the public read documents: its functions read, verify and record; none writes the board or grades a model.',
      census_fn:
        'The CENSUS function records a listing and does not grade: every listed id stays DISCOVERED and UNMEASURED.',
    },
    pod: {
      inventory_kind: 'unmeasured',
      note: 'A running pod is not a measurement: no pod inventory is observed or graded here.',
    },
    os: {
      doors: [...OS_DOORS],
      harness: '13 free readers plus 4 metered evidence tools over MCP',
      view_only: true,
    },
  };
}
