/**
 * The 17 rails of the capability fabric (specification, "Capability fabric"): what each rail is
 * and how its state is observed. A rail's state is never declared here; this says only which
 * same-origin request observes it and what its answer must contain. `writes_board` is false on
 * every rail: the service is read-only toward callers.
 */

export type RailState = 'RUNTIME_OBSERVED' | 'CATALOGUED' | 'UNCHECKABLE' | 'UNREACHABLE' | 'SIGNED';
export const RAIL_STATES: readonly RailState[] = [
  'RUNTIME_OBSERVED',
  'CATALOGUED',
  'UNCHECKABLE',
  'UNREACHABLE',
  'SIGNED',
];

/** The specification's `last_error` texts for a rail that cannot be observed. */
export const NO_ENDPOINT = 'no published runtime endpoint';
export const NO_BINDING = 'no protocol binding declared';
export const NO_ADAPTER = 'provider adapter is unconfigured';

/** A JSON Schema (2020-12 subset) the probed body must satisfy. */
export type OutputSchema = Record<string, unknown>;

/**
 * How a rail is observed. `http`: one same-origin request; success is a 2xx whose body meets
 * `output_schema`. The `interpret` step reads state the endpoint itself reports:
 * - `catalogued`: a catalogue that lists without measuring (success → CATALOGUED);
 * - `signed-root`: the root's signature is checked under the DID document (→ SIGNED);
 * - `signed-agent-card`: the A2A card's JWS is checked under the DID document (→ SIGNED);
 * - `self-reported`: the endpoint reports its own `state` / `last_error` (the provider canary);
 * - `agui-binding`: the compute bridge's `agui.configured` says whether a wire is bound;
 * - `receipt-chain`: the action-job chain must not be BROKEN or UNREAD;
 * - `witness-binds-root`: the witness record must name the served root's SHA-256.
 */
export interface HttpProbe {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** JSON request body (POST). */
  body?: unknown;
  /** Streams are observed from their status and content type only. */
  expect: 'json' | 'event-stream';
  output_schema?: OutputSchema;
  interpret?:
    | 'catalogued'
    | 'signed-root'
    | 'signed-agent-card'
    | 'self-reported'
    | 'agui-binding'
    | 'receipt-chain'
    | 'witness-binds-root';
}

export interface RailDefinition {
  id: string;
  label: string;
  role: string;
  protocol: string;
  /** Same-origin path; null when the rail has no runtime endpoint. */
  endpoint: string | null;
  probe: HttpProbe | null;
}

const schemaWith = (required: string[], properties: Record<string, unknown> = {}): OutputSchema => ({
  type: 'object',
  required,
  properties,
});

/** Output requirements of the six actions (specification, "Output requirements"). */
export const OUTPUT_REQUIREMENTS = {
  board: schemaWith(['schema', 'axes'], { schema: { type: 'string' }, axes: { type: 'array' } }),
  regulation: schemaWith(['schema', 'deadlines'], { schema: { type: 'string' }, deadlines: { type: 'array' } }),
  xrpl: schemaWith(['kind', 'writes_board'], { kind: { type: 'string' }, writes_board: { const: false } }),
  catalogue: schemaWith(['census'], { census: { type: 'object' } }),
  heartbeat: schemaWith(['source'], { source: { type: 'string' } }),
  root: schemaWith(['merkle_root', 'sig_ed25519', 'did_intended'], {
    merkle_root: { type: 'string' },
    did_intended: { type: 'string' },
  }),
} as const satisfies Record<string, OutputSchema>;

const get = (output_schema?: OutputSchema, interpret?: HttpProbe['interpret']): HttpProbe => ({
  method: 'GET',
  expect: 'json',
  ...(output_schema && { output_schema }),
  ...(interpret && { interpret }),
});

const JSON_RPC = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export const RAILS: readonly RailDefinition[] = [
  {
    id: 'mcp-tools',
    label: 'MCP tools',
    role: 'agent tool access (13 free readers, 4 metered evidence tools)',
    protocol: 'MCP (Streamable HTTP, JSON-RPC 2.0)',
    endpoint: '/mcp',
    // The 2026-07-28 form: stateless, answered as plain JSON (a 2025-era request is answered as SSE).
    probe: {
      method: 'POST',
      headers: { ...JSON_RPC, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      expect: 'json',
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'gspc-board-fabric-probe', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      output_schema: schemaWith(['result'], { result: schemaWith(['tools'], { tools: { type: 'array' } }) }),
    },
  },
  {
    id: 'gspc-board',
    label: 'GSPC board',
    role: 'the public measurement board',
    protocol: 'HTTP JSON',
    endpoint: '/api/gspc',
    probe: get(OUTPUT_REQUIREMENTS.board),
  },
  {
    id: 'agui-gspc-state',
    label: 'AG-UI board state',
    role: 'presentation stream of the board',
    protocol: 'AG-UI (server-sent events)',
    endpoint: '/api/agui/gspc-state',
    probe: { method: 'GET', headers: { accept: 'text/event-stream' }, expect: 'event-stream' },
  },
  {
    id: 'a2a-discovery',
    label: 'A2A agent card',
    role: 'agent discovery',
    protocol: 'A2A v1.0 agent card',
    endpoint: '/.well-known/agent-card.json',
    probe: get(
      schemaWith(['name', 'skills'], { name: { type: 'string' }, skills: { type: 'array' } }),
      'signed-agent-card',
    ),
  },
  {
    id: 'a2a-runtime',
    label: 'A2A peer endpoint',
    role: 'peer-agent messages (SendMessage)',
    protocol: 'A2A v1.0 JSON-RPC',
    endpoint: '/api/a2a',
    probe: {
      method: 'POST',
      headers: { ...JSON_RPC, 'a2a-version': '1.0' },
      expect: 'json',
      body: {
        jsonrpc: '2.0',
        id: 'fabric-probe',
        method: 'SendMessage',
        params: { message: { messageId: 'fabric-probe', role: 'ROLE_USER', parts: [{ text: 'board summary' }] } },
      },
      output_schema: schemaWith(['result'], { result: { type: 'object' } }),
    },
  },
  {
    id: 'a2ui-renderer',
    label: 'A2UI renderer',
    role: 'agent-driven interface rendering',
    protocol: 'A2UI',
    endpoint: null,
    probe: null,
  },
  {
    id: 'model-hub-census',
    label: 'Model hub census',
    role: 'catalogued model listings (never measurements)',
    protocol: 'HTTP JSON',
    endpoint: '/api/compute',
    probe: get(OUTPUT_REQUIREMENTS.catalogue, 'catalogued'),
  },
  {
    id: 'model-hub-provider-execution',
    label: 'Provider execution',
    role: 'provider canary runs',
    protocol: 'HTTP JSON',
    endpoint: '/api/provider-canary',
    probe: get(undefined, 'self-reported'),
  },
  {
    id: 'action-job-ledger',
    label: 'Action-job ledger',
    role: 'intent and state receipts (append-only chain; no executor)',
    protocol: 'HTTP JSON',
    endpoint: '/api/action-jobs',
    probe: get(schemaWith(['schema', 'chain']), 'receipt-chain'),
  },
  {
    id: 'agui-provider-wire',
    label: 'AG-UI provider wire',
    role: 'provider event wire',
    protocol: 'AG-UI',
    endpoint: '/api/compute',
    probe: get(schemaWith(['agui'], { agui: { type: 'object' } }), 'agui-binding'),
  },
  {
    id: 'pod-execution',
    label: 'Pod execution',
    role: 'compute pods (a running pod is not a measurement)',
    protocol: 'HTTP JSON',
    endpoint: '/api/provider-canary',
    probe: get(undefined, 'self-reported'),
  },
  {
    id: 'oracle-fleet',
    label: 'Oracle fleet',
    role: 'heartbeats and the external watchdog',
    protocol: 'HTTP JSON',
    endpoint: '/api/oracle-fleet',
    probe: get(OUTPUT_REQUIREMENTS.heartbeat),
  },
  {
    id: 'regulation-feed',
    label: 'Regulation feed',
    role: 'version-pinned regulation deadlines',
    protocol: 'HTTP JSON',
    endpoint: '/api/regulation',
    probe: get(OUTPUT_REQUIREMENTS.regulation),
  },
  {
    id: 'xrpl-reader',
    label: 'XRPL reader',
    role: 'ledger asset reads (never written to the board)',
    protocol: 'HTTP JSON',
    endpoint: '/api/xrpl',
    probe: get(OUTPUT_REQUIREMENTS.xrpl),
  },
  {
    id: 'x402-settlement',
    label: 'x402 settlement',
    role: 'revenue ledger: non-self, non-zero settlements are demand',
    protocol: 'x402 v2 (HTTP 402)',
    endpoint: '/api/revenue',
    probe: get(schemaWith(['schema'], { schema: { type: 'string' } })),
  },
  {
    id: 'public-root',
    label: 'Public root',
    role: 'signed Merkle root over the cards',
    protocol: 'HTTP JSON (Ed25519)',
    endpoint: '/root.json',
    probe: get(OUTPUT_REQUIREMENTS.root, 'signed-root'),
  },
  {
    id: 'root-witness',
    label: 'Root witness',
    role: 'witness record of the root bytes',
    protocol: 'HTTP JSON',
    endpoint: '/interop/root-witness-latest.json',
    probe: get(
      schemaWith(['root_sha256', 'witnesses'], { root_sha256: { type: 'string' }, witnesses: { type: 'array' } }),
      'witness-binds-root',
    ),
  },
];

export function railById(id: string): RailDefinition | undefined {
  return RAILS.find((r) => r.id === id);
}
