/**
 * The six capability actions (specification, "Capability fabric": Actions table, action
 * `definition`). Every action is a public read: no approval, no charge, same-origin egress
 * only, safe to retry, and never executed by the service (execution is fail-closed). An
 * action's state is its evidence rail's observed state (action-contract.ts).
 */
import { OUTPUT_REQUIREMENTS, type OutputSchema, type RailState } from './rails.js';

export type ViewMode = 'DIRECT_READ' | 'CATALOGUE_ONLY' | 'DISCOVERY_ONLY' | 'UNBOUND' | 'PRESENTATION_ONLY';
export type ActionProtocol = 'HTTP' | 'MCP' | 'A2A' | 'A2UI' | 'AGUI' | 'DASHBOARD';
export const ACTION_PROTOCOLS: readonly ActionProtocol[] = ['HTTP', 'MCP', 'A2A', 'A2UI', 'AGUI', 'DASHBOARD'];

export interface ProtocolView {
  protocol: ActionProtocol;
  mode: ViewMode;
  /** Where the view is bound (a request, tool or page); null when UNBOUND. */
  binding: string | null;
  /** The rail whose observed state is this view's state; null when no rail observes it. */
  evidence_rail_id: string | null;
}

/** MCP tool names the action views bind (the MCP surface registers these names). */
export const MCP_TOOL_FOR_ACTION = {
  'svc.gspc.board.read': 'gspc_board',
  'svc.regulation.deadlines.read': 'regulation_deadlines',
  'svc.evidence.root.read': 'gspc_root',
} as const;

export const EXECUTION_DISABLED_REASON =
  'Action execution is disabled (fail-closed): the service only reads and never executes, calls a provider, sends data out or writes the board on behalf of a caller.';

interface ActionSpec {
  id: string;
  title: string;
  description: string;
  http: string;
  httpMode: ViewMode;
  rail: string;
  acceptable: RailState[];
  output: OutputSchema;
  mcp?: string;
  a2a?: string;
  agui?: string;
  dashboard?: string;
}

const SPECS: readonly ActionSpec[] = [
  {
    id: 'svc.gspc.board.read',
    title: 'Read the GSPC board',
    description: 'Reads the public measurement board: every axis with its n, status, leader interval and separation.',
    http: 'GET /api/gspc',
    httpMode: 'DIRECT_READ',
    rail: 'gspc-board',
    acceptable: ['RUNTIME_OBSERVED'],
    output: OUTPUT_REQUIREMENTS.board,
    mcp: MCP_TOOL_FOR_ACTION['svc.gspc.board.read'],
    a2a: 'board-summary',
    agui: 'GET /api/agui/gspc-state',
    dashboard: '/dashboard?tab=measured',
  },
  {
    id: 'svc.regulation.deadlines.read',
    title: 'Read the regulation deadlines',
    description: 'Reads the version-pinned regulation deadline feed with its verified-as-of date.',
    http: 'GET /api/regulation',
    httpMode: 'DIRECT_READ',
    rail: 'regulation-feed',
    acceptable: ['RUNTIME_OBSERVED'],
    output: OUTPUT_REQUIREMENTS.regulation,
    mcp: MCP_TOOL_FOR_ACTION['svc.regulation.deadlines.read'],
    a2a: 'regulation-deadlines',
    dashboard: '/dashboard?tab=regulators',
  },
  {
    id: 'svc.xrpl.assets.read',
    title: 'Read XRPL assets',
    description:
      'Reads ledger assets from a configured XRPL endpoint or a recorded snapshot, saying which; never writes the board.',
    http: 'GET /api/xrpl',
    httpMode: 'DIRECT_READ',
    rail: 'xrpl-reader',
    acceptable: ['RUNTIME_OBSERVED'],
    output: OUTPUT_REQUIREMENTS.xrpl,
  },
  {
    id: 'svc.models.catalogue.read',
    title: 'Read the model catalogue',
    description: 'Reads the catalogued model-hub census (listings are DISCOVERED, never MEASURED).',
    http: 'GET /api/compute (census part)',
    httpMode: 'CATALOGUE_ONLY',
    rail: 'model-hub-census',
    acceptable: ['CATALOGUED'],
    output: OUTPUT_REQUIREMENTS.catalogue,
    dashboard: '/dashboard?tab=compute',
  },
  {
    id: 'svc.compute.heartbeat.read',
    title: 'Read the oracle heartbeats',
    description: 'Reads the oracle-fleet heartbeats and the external watchdog state.',
    http: 'GET /api/oracle-fleet',
    httpMode: 'DIRECT_READ',
    rail: 'oracle-fleet',
    acceptable: ['RUNTIME_OBSERVED'],
    output: OUTPUT_REQUIREMENTS.heartbeat,
    dashboard: '/dashboard?tab=compute',
  },
  {
    id: 'svc.evidence.root.read',
    title: 'Read the signed public root',
    description: 'Reads the signed Merkle public root that binds its leaf count.',
    http: 'GET /root.json',
    httpMode: 'DIRECT_READ',
    rail: 'public-root',
    acceptable: ['SIGNED'],
    output: OUTPUT_REQUIREMENTS.root,
    mcp: MCP_TOOL_FOR_ACTION['svc.evidence.root.read'],
    a2a: 'root-pointer',
    dashboard: '/dashboard?tab=provenance',
  },
];

const unbound = (protocol: ActionProtocol, rail: string | null): ProtocolView => ({
  protocol,
  mode: 'UNBOUND',
  binding: null,
  evidence_rail_id: rail,
});

function viewsOf(s: ActionSpec): ProtocolView[] {
  return [
    { protocol: 'HTTP', mode: s.httpMode, binding: s.http, evidence_rail_id: s.rail },
    s.mcp
      ? { protocol: 'MCP', mode: 'DIRECT_READ', binding: `tools/call ${s.mcp}`, evidence_rail_id: 'mcp-tools' }
      : unbound('MCP', null),
    s.a2a
      ? {
          protocol: 'A2A',
          mode: 'DISCOVERY_ONLY',
          binding: `agent card skill ${s.a2a}`,
          evidence_rail_id: 'a2a-discovery',
        }
      : unbound('A2A', null),
    unbound('A2UI', 'a2ui-renderer'),
    s.agui
      ? { protocol: 'AGUI', mode: 'PRESENTATION_ONLY', binding: s.agui, evidence_rail_id: 'agui-gspc-state' }
      : unbound('AGUI', null),
    // Dashboard tabs are presentation only: no rail observes a page.
    s.dashboard
      ? { protocol: 'DASHBOARD', mode: 'PRESENTATION_ONLY', binding: s.dashboard, evidence_rail_id: null }
      : unbound('DASHBOARD', null),
  ];
}

export interface ActionDefinition {
  schema: 'svc.capability-action/0.1';
  id: string;
  version: '0.1.0';
  title: string;
  description: string;
  input_schema: OutputSchema;
  output_schema: OutputSchema;
  risk_class: 'READ_ONLY';
  scopes: string[];
  approval_policy: { mode: 'NONE'; applies_to: 'PUBLIC_READ' };
  cost_policy: { mode: 'NO_CHARGE'; maximum_minor_units: 0; currency: null; fail_closed: true };
  egress_policy: { mode: 'SAME_ORIGIN_ONLY'; destinations: string[]; sensitive_data: 'PROHIBITED'; fail_closed: true };
  timeout_ms: number;
  idempotency: { mode: 'SAFE_RETRY'; key_required: false; retention_seconds: 0 };
  verifier: { kind: 'FABRIC_RAIL_STATE'; evidence_rail_id: string; acceptable_states: RailState[] };
  compensator: null;
  protocol_views: ProtocolView[];
  execution_policy: { enabled: false; executor_ref: null; reason: string };
}

/** Limits: action timeout `timeout_ms` 3500. */
export const ACTION_TIMEOUT_MS = 3500;

export const ACTIONS: readonly ActionDefinition[] = SPECS.map((s) => ({
  schema: 'svc.capability-action/0.1',
  id: s.id,
  version: '0.1.0',
  title: s.title,
  description: s.description,
  input_schema: { type: 'object', properties: {}, additionalProperties: false },
  output_schema: s.output,
  risk_class: 'READ_ONLY',
  scopes: ['public:read'],
  approval_policy: { mode: 'NONE', applies_to: 'PUBLIC_READ' },
  cost_policy: { mode: 'NO_CHARGE', maximum_minor_units: 0, currency: null, fail_closed: true },
  egress_policy: { mode: 'SAME_ORIGIN_ONLY', destinations: [], sensitive_data: 'PROHIBITED', fail_closed: true },
  timeout_ms: ACTION_TIMEOUT_MS,
  idempotency: { mode: 'SAFE_RETRY', key_required: false, retention_seconds: 0 },
  verifier: { kind: 'FABRIC_RAIL_STATE', evidence_rail_id: s.rail, acceptable_states: s.acceptable },
  compensator: null,
  protocol_views: viewsOf(s),
  execution_policy: { enabled: false, executor_ref: null, reason: EXECUTION_DISABLED_REASON },
}));
