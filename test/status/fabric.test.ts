/**
 * The capability fabric (issue 5): rail states are observed by probing the service's own origin,
 * never declared. Real servers only: the app listening on a port, a front that answers 403 (the
 * specification's recorded zone-level defect), a front that redirects off the origin, and a
 * target that hangs (the document must not wait for it).
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { readRailConfig } from '../../src/config.js';
import { FabricObserver } from '../../src/status/fabric-observer.js';
import { sameOriginUrl } from '../../src/status/bounded-fetch.js';
import { RAILS, NO_ENDPOINT, NO_BINDING } from '../../src/core/fabric/rails.js';
import { ACTIONS } from '../../src/core/fabric/actions.js';
import { ACTION_IDS } from '../../src/core/ledger/action-jobs-receipt.js';
import { railObservation } from '../../src/core/fabric/rail-state.js';
import { fabricDocument } from '../../src/core/fabric/fabric-document.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

// The specification's rail ids and endpoints ("Capability fabric"), in its order.
const SPEC_RAILS: [string, string | null][] = [
  ['mcp-tools', '/mcp'],
  ['gspc-board', '/api/gspc'],
  ['agui-gspc-state', '/api/agui/gspc-state'],
  ['a2a-discovery', '/.well-known/agent-card.json'],
  ['a2a-runtime', '/api/a2a'],
  ['a2ui-renderer', null],
  ['model-hub-census', '/api/compute'],
  ['model-hub-provider-execution', '/api/provider-canary'],
  ['action-job-ledger', '/api/action-jobs'],
  ['agui-provider-wire', '/api/compute'],
  ['pod-execution', '/api/provider-canary'],
  ['oracle-fleet', '/api/oracle-fleet'],
  ['regulation-feed', '/api/regulation'],
  ['xrpl-reader', '/api/xrpl'],
  ['x402-settlement', '/api/revenue'],
  ['public-root', '/root.json'],
  ['root-witness', '/interop/root-witness-latest.json'],
];
const RAIL_FIELDS = [
  'id',
  'label',
  'role',
  'protocol',
  'endpoint',
  'state',
  'evidence_ref',
  'summary',
  'freshness_seconds',
  'last_error',
  'observed_at',
  'writes_board',
];
const DEFINITION_FIELDS = [
  'schema',
  'id',
  'version',
  'title',
  'description',
  'input_schema',
  'output_schema',
  'risk_class',
  'scopes',
  'approval_policy',
  'cost_policy',
  'egress_policy',
  'timeout_ms',
  'idempotency',
  'verifier',
  'compensator',
  'protocol_views',
  'execution_policy',
];
const RUNTIME_FIELDS = [
  'state',
  'observed_at',
  'verifier_passed',
  'evidence_rail_id',
  'evidence_ref',
  'last_error',
  'execution_enabled',
  'execution_observed',
  'protocol_views',
];
const SPEC_ACTIONS: [string, string, string, string][] = [
  ['svc.gspc.board.read', 'GET /api/gspc', 'gspc-board', 'RUNTIME_OBSERVED'],
  ['svc.regulation.deadlines.read', 'GET /api/regulation', 'regulation-feed', 'RUNTIME_OBSERVED'],
  ['svc.xrpl.assets.read', 'GET /api/xrpl', 'xrpl-reader', 'RUNTIME_OBSERVED'],
  ['svc.models.catalogue.read', 'GET /api/compute (census part)', 'model-hub-census', 'CATALOGUED'],
  ['svc.compute.heartbeat.read', 'GET /api/oracle-fleet', 'oracle-fleet', 'RUNTIME_OBSERVED'],
  ['svc.evidence.root.read', 'GET /root.json', 'public-root', 'SIGNED'],
];

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  after(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const observer = (origin: string, timeoutMs = 3500) =>
  new FabricObserver({ origin, timeoutMs, fetch: (u, i) => fetch(u, i), now: () => new Date(), refreshMs: 3_600_000 });
const railOf = (doc: ReturnType<typeof fabricDocument>, id: string) => doc.rails.find((r) => r.id === id)!;

describe('the fabric document: shape against the specification', () => {
  const doc = fabricDocument(new Map(), new Date('2026-11-21T00:00:00Z'));

  it('has the schema, every rail with the specification id and endpoint, and writes_board false on each', () => {
    assert.equal(doc.schema, 'svc.capability-fabric/0.1');
    assert.deepEqual(Object.keys(doc), ['schema', 'observed_at', 'rails', 'action_contract']);
    assert.deepEqual(
      doc.rails.map((r) => [r.id, r.endpoint]),
      SPEC_RAILS,
    );
    for (const r of doc.rails) {
      assert.deepEqual(Object.keys(r).sort(), [...RAIL_FIELDS].sort(), r.id);
      assert.equal(r.writes_board, false);
    }
  });

  it('says a rail without an endpoint is UNCHECKABLE with the specification text, and an unprobed rail is not observed', () => {
    const a2ui = railOf(doc, 'a2ui-renderer');
    assert.equal(a2ui.state, 'UNCHECKABLE');
    assert.equal(a2ui.last_error, NO_ENDPOINT);
    assert.equal(a2ui.freshness_seconds, null);
    const board = railOf(doc, 'gspc-board');
    assert.equal(board.state, 'UNCHECKABLE');
    assert.equal(board.observed_at, null);
    assert.equal(board.freshness_seconds, null);
  });

  it('has the action contract: FAIL_CLOSED, execution disabled, six protocols, the six actions of the specification', () => {
    const c = doc.action_contract;
    assert.equal(c.schema, 'svc.capability-action-contract/0.1');
    assert.deepEqual(c.policy.mode, 'FAIL_CLOSED');
    assert.equal(c.policy.execution_enabled, false);
    assert.ok(c.policy.reason.length > 0);
    assert.deepEqual(c.protocols, ['HTTP', 'MCP', 'A2A', 'A2UI', 'AGUI', 'DASHBOARD']);
    assert.deepEqual(
      c.actions.map((a) => [
        a.definition.id,
        a.definition.protocol_views[0]!.binding,
        a.definition.verifier.evidence_rail_id,
        a.definition.verifier.acceptable_states.join(),
      ]),
      SPEC_ACTIONS,
    );
    for (const { definition: d, runtime: r } of c.actions) {
      assert.deepEqual(Object.keys(d), DEFINITION_FIELDS, d.id);
      assert.deepEqual(Object.keys(r), RUNTIME_FIELDS, d.id);
      assert.equal(d.schema, 'svc.capability-action/0.1');
      assert.equal(d.version, '0.1.0');
      assert.deepEqual(d.input_schema, { type: 'object', properties: {}, additionalProperties: false });
      assert.equal(d.risk_class, 'READ_ONLY');
      assert.deepEqual(d.scopes, ['public:read']);
      assert.deepEqual(d.approval_policy, { mode: 'NONE', applies_to: 'PUBLIC_READ' });
      assert.deepEqual(d.cost_policy, { mode: 'NO_CHARGE', maximum_minor_units: 0, currency: null, fail_closed: true });
      assert.deepEqual(d.egress_policy, {
        mode: 'SAME_ORIGIN_ONLY',
        destinations: [],
        sensitive_data: 'PROHIBITED',
        fail_closed: true,
      });
      assert.equal(d.timeout_ms, 3500);
      assert.deepEqual(d.idempotency, { mode: 'SAFE_RETRY', key_required: false, retention_seconds: 0 });
      assert.equal(d.verifier.kind, 'FABRIC_RAIL_STATE');
      assert.equal(d.compensator, null);
      assert.deepEqual({ ...d.execution_policy, reason: '' }, { enabled: false, executor_ref: null, reason: '' });
      assert.deepEqual(
        d.protocol_views.map((v) => v.protocol),
        ['HTTP', 'MCP', 'A2A', 'A2UI', 'AGUI', 'DASHBOARD'],
      );
      for (const v of d.protocol_views)
        assert.ok(['DIRECT_READ', 'CATALOGUE_ONLY', 'DISCOVERY_ONLY', 'UNBOUND', 'PRESENTATION_ONLY'].includes(v.mode));
      assert.equal(r.execution_enabled, false);
      assert.equal(r.execution_observed, false);
      // Nothing observed yet: no action passes its verifier.
      assert.equal(r.verifier_passed, false);
      for (const v of r.protocol_views) {
        assert.equal(v.execution_observed, false);
        if (v.mode === 'UNBOUND') assert.equal(v.last_error, NO_BINDING);
      }
    }
    const dash = c.actions
      .flatMap((a) => a.definition.protocol_views)
      .filter((v) => v.protocol === 'DASHBOARD' && v.mode !== 'UNBOUND');
    assert.ok(
      dash.every(
        (v) =>
          v.mode === 'PRESENTATION_ONLY' &&
          /^\/dashboard\?tab=(measured|regulators|provenance|compute)$/.test(v.binding!),
      ),
    );
  });

  it('the action-job ledger accepts exactly the six actions of the contract', () => {
    assert.deepEqual([...ACTION_IDS].sort(), ACTIONS.map((a) => a.id).sort());
  });

  it("output requirements are the specification's", () => {
    const req = Object.fromEntries(ACTIONS.map((a) => [a.id, (a.output_schema as { required: string[] }).required]));
    assert.deepEqual(req, {
      'svc.gspc.board.read': ['schema', 'axes'],
      'svc.regulation.deadlines.read': ['schema', 'deadlines'],
      'svc.xrpl.assets.read': ['kind', 'writes_board'],
      'svc.models.catalogue.read': ['census'],
      'svc.compute.heartbeat.read': ['source'],
      'svc.evidence.root.read': ['merkle_root', 'sig_ed25519', 'did_intended'],
    });
  });
});

describe('rail states from what a probe saw (pure)', () => {
  const def = (id: string) => RAILS.find((r) => r.id === id)!;
  const answered = (
    status: number,
    json: unknown,
    schema_errors: string[] = [],
    checks: { ok: boolean; detail: string }[] = [],
  ) => ({
    kind: 'answered' as const,
    at: '2026-11-21T00:00:00.000Z',
    status,
    content_type: 'application/json',
    body_sha256: '0'.repeat(64),
    json,
    schema_errors,
    checks,
  });

  it('a probe answered 403 gives UNREACHABLE with "HTTP 403"', () => {
    const o = railObservation(def('mcp-tools'), answered(403, undefined));
    assert.equal(o.state, 'UNREACHABLE');
    assert.equal(o.last_error, 'HTTP 403');
  });
  it('no answer gives UNREACHABLE with the reason; an answer without the required output gives UNCHECKABLE', () => {
    assert.deepEqual(
      [
        railObservation(def('gspc-board'), { kind: 'failed', at: 'x', error: 'timeout after 3500 ms' }).state,
        railObservation(def('gspc-board'), { kind: 'failed', at: 'x', error: 'timeout after 3500 ms' }).last_error,
      ],
      ['UNREACHABLE', 'timeout after 3500 ms'],
    );
    const o = railObservation(
      def('regulation-feed'),
      answered(200, { schema: 'x' }, ["(body) must have required property 'deadlines'"]),
    );
    assert.equal(o.state, 'UNCHECKABLE');
    assert.match(o.last_error!, /output requirement not met: .*deadlines/);
  });
  it('the census is CATALOGUED, the root SIGNED only when its signature verified', () => {
    assert.equal(railObservation(def('model-hub-census'), answered(200, { census: {} })).state, 'CATALOGUED');
    assert.equal(
      railObservation(def('public-root'), answered(200, { sig_ed25519: 'ab' }, [], [{ ok: true, detail: 'ok' }])).state,
      'SIGNED',
    );
    const bad = railObservation(
      def('public-root'),
      answered(200, { sig_ed25519: 'ab' }, [], [{ ok: false, detail: 'bad signature' }]),
    );
    assert.deepEqual([bad.state, bad.last_error], ['UNCHECKABLE', 'bad signature']);
    const unsigned = railObservation(
      def('public-root'),
      answered(200, { sig_ed25519: null }, [], [{ ok: false, detail: 'the root is unsigned' }]),
    );
    assert.deepEqual([unsigned.state, unsigned.last_error], ['RUNTIME_OBSERVED', 'the root is unsigned']);
  });
  it('provider rails take the state the canary reports; the AG-UI wire without a binding is UNCHECKABLE', () => {
    const c = railObservation(
      def('pod-execution'),
      answered(200, { state: 'UNCHECKABLE', last_error: 'provider adapter is unconfigured' }),
    );
    assert.deepEqual([c.state, c.last_error], ['UNCHECKABLE', 'provider adapter is unconfigured']);
    const w = railObservation(def('agui-provider-wire'), answered(200, { agui: { configured: false } }));
    assert.deepEqual([w.state, w.last_error], ['UNCHECKABLE', NO_BINDING]);
  });
  it('a broken action-job chain is not RUNTIME_OBSERVED', () => {
    const o = railObservation(
      def('action-job-ledger'),
      answered(200, { schema: 's', chain: { state: 'BROKEN', broken_at_seq: 3, reason: 'hash mismatch' } }),
    );
    assert.equal(o.state, 'UNCHECKABLE');
    assert.match(o.last_error!, /broken at seq 3/);
  });
});

describe('probing the service itself over HTTP', () => {
  const signing = testSigning();
  const { dir } = publishRelease(demoCorpus, tempDir(), signing.inputs);
  const state = new ServedState(loadRelease(dir), liveSigning(signing));
  const app = buildApp({
    state,
    logLevel: 'silent',
    baseUrl: 'http://localhost:8080',
    now: () => new Date(),
    products: { rail: readRailConfig({}) },
  });
  after(() => app.close());
  let origin = '';
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  it('observes the board and the witness, verifies the root signature (SIGNED), and passes those actions', async () => {
    const o = observer(origin);
    await o.refresh();
    const doc = fabricDocument(o.snapshot(), new Date());
    assert.equal(railOf(doc, 'gspc-board').state, 'RUNTIME_OBSERVED');
    assert.match(railOf(doc, 'gspc-board').evidence_ref!, /^GET \/api\/gspc → 200, sha256:[0-9a-f]{64}$/);
    assert.equal(railOf(doc, 'public-root').state, 'SIGNED', railOf(doc, 'public-root').last_error ?? '');
    assert.equal(railOf(doc, 'root-witness').state, 'RUNTIME_OBSERVED', railOf(doc, 'root-witness').last_error ?? '');
    assert.equal(railOf(doc, 'x402-settlement').state, 'RUNTIME_OBSERVED');
    // The agent surfaces (issue 6): MCP answers tools/list, the agent card's JWS verifies, the
    // A2A runtime answers SendMessage, the AG-UI stream answers with an event stream.
    assert.equal(railOf(doc, 'mcp-tools').state, 'RUNTIME_OBSERVED', railOf(doc, 'mcp-tools').last_error ?? '');
    assert.equal(railOf(doc, 'a2a-discovery').state, 'SIGNED', railOf(doc, 'a2a-discovery').last_error ?? '');
    assert.equal(railOf(doc, 'a2a-runtime').state, 'RUNTIME_OBSERVED', railOf(doc, 'a2a-runtime').last_error ?? '');
    assert.equal(
      railOf(doc, 'agui-gspc-state').state,
      'RUNTIME_OBSERVED',
      railOf(doc, 'agui-gspc-state').last_error ?? '',
    );
    for (const r of doc.rails.filter((x) => x.endpoint !== null)) {
      assert.ok(r.observed_at !== null && r.freshness_seconds !== null && r.freshness_seconds >= 0, r.id);
    }
    const action = (id: string) => doc.action_contract.actions.find((a) => a.definition.id === id)!.runtime;
    assert.equal(action('svc.gspc.board.read').verifier_passed, true);
    assert.equal(action('svc.evidence.root.read').verifier_passed, true);
    assert.equal(action('svc.evidence.root.read').state, 'SIGNED');
  });

  it('the fabric route answers from the cache at once, and says what is not observed yet', async () => {
    const res = await fetch(`${origin}/api/capability-fabric`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const doc = (await res.json()) as ReturnType<typeof fabricDocument>;
    assert.equal(doc.schema, 'svc.capability-fabric/0.1');
    assert.equal(doc.rails.length, 17);
    assert.equal((await fetch(`${origin}/api/capability-fabric?x=1`)).status, 400);
  });
});

describe('probes that do not reach the service', () => {
  it('a front that refuses plain clients with 403 makes the MCP rail UNREACHABLE "HTTP 403"', async () => {
    const { origin } = await listen((_req, res) => {
      res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>Forbidden</h1>');
    });
    const o = observer(origin);
    await o.refresh();
    const doc = fabricDocument(o.snapshot(), new Date());
    const mcp = railOf(doc, 'mcp-tools');
    assert.deepEqual([mcp.state, mcp.last_error], ['UNREACHABLE', 'HTTP 403']);
    assert.equal(
      doc.action_contract.actions.every((a) => !a.runtime.verifier_passed),
      true,
    );
    const boardView = doc.action_contract.actions[0]!.runtime.protocol_views.find((v) => v.protocol === 'MCP')!;
    assert.deepEqual([boardView.state, boardView.last_error], ['UNREACHABLE', 'HTTP 403']);
  });

  it('a redirect is not followed (it could leave the origin): UNREACHABLE with its status', async () => {
    let offOrigin = 0;
    const elsewhere = await listen((_req, res) => {
      offOrigin++;
      res.end('{}');
    });
    const { origin } = await listen((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.origin}/api/gspc` }).end();
    });
    const o = observer(origin);
    await o.refresh();
    const board = railOf(fabricDocument(o.snapshot(), new Date()), 'gspc-board');
    assert.deepEqual([board.state, board.last_error], ['UNREACHABLE', 'HTTP 302']);
    assert.equal(offOrigin, 0);
  });

  it('only fixed paths on the configured origin are probed', () => {
    assert.equal(sameOriginUrl('https://board.example', '/api/gspc'), 'https://board.example/api/gspc');
    assert.throws(() => sameOriginUrl('https://board.example', '//evil.example/x'));
    assert.throws(() => sameOriginUrl('https://board.example', 'http://evil.example/'));
  });

  it('a hanging target delays only its own rail: the document is served while its probe runs, then the rail times out', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const { origin } = await listen((req, res) => {
      if (req.url === '/api/regulation') {
        void held.then(() => res.destroy());
        return;
      }
      res.writeHead(404).end();
    });
    const o = observer(origin, 400);
    o.start();
    after(() => o.stop());
    // Another rail is observed while the regulation probe is still held open.
    await waitUntil(() => o.snapshot().has('gspc-board'));
    const during = fabricDocument(o.snapshot(), new Date());
    assert.equal(railOf(during, 'regulation-feed').observed_at, null);
    assert.equal(railOf(during, 'gspc-board').last_error, 'HTTP 404');
    await waitUntil(() => o.snapshot().has('regulation-feed'));
    const reg = railOf(fabricDocument(o.snapshot(), new Date()), 'regulation-feed');
    assert.deepEqual([reg.state, reg.last_error], ['UNREACHABLE', 'timeout after 400 ms']);
    release();
  });
});

async function waitUntil(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
