/**
 * `/mcp` with the official clients of both MCP eras (issue 6): the v2 client pinned to
 * 2026-07-28, the v2 client in its default (2025-era) mode, and the v1.32 client, each against
 * the real app listening on a port (a published, signed demo release with its products).
 * Every free tool's structuredContent is compared with the body of the HTTP route it names.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { readRailConfig } from '../../src/config.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { FabricObserver } from '../../src/status/fabric-observer.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

// The advertised tools (docs/agents.md): 13 free, 4 metered; witness_hash is quarantined.
const FREE = [
  'gspc_board',
  'gspc_axis',
  'gspc_card',
  'gspc_card_matrix',
  'gspc_root',
  'gspc_root_witness',
  'gspc_did_document',
  'gspc_corrections',
  'regulation_deadlines',
  'gspc_capability_fabric',
  'gspc_products',
  'gspc_cost',
  'verify_card',
];
const METERED = ['gspc_free_door', 'gspc_request_attestation', 'gspc_evidence_bundle', 'gspc_eunomia_data'];
// A fixed clock: documents that carry the time (regulation, catalogue, fabric) are then equal across reads.
const NOW = new Date('2026-11-20T12:00:00Z');

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
interface AnyClient {
  listTools(): Promise<{
    tools: {
      name: string;
      inputSchema: Record<string, unknown>;
      annotations?: Record<string, unknown>;
      title?: string;
      description?: string;
    }[];
  }>;
  callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

const signing = testSigning();
const { dir } = publishRelease(demoCorpus, tempDir(), signing.inputs);
const state = new ServedState(loadRelease(dir), liveSigning(signing));
const fabric = new FabricObserver({
  origin: 'http://127.0.0.1:1',
  timeoutMs: 3500,
  fetch: (u, i) => fetch(u, i),
  now: () => NOW,
  refreshMs: 3_600_000,
});
const app = buildApp({
  state,
  logLevel: 'silent',
  baseUrl: 'http://localhost:8080',
  now: () => NOW,
  products: { rail: readRailConfig({}) },
  fabric,
});
let origin = '';
const clients: [string, AnyClient][] = [];

before(async () => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  fabric.retarget(origin);
  fabric.start();
  await fabric.refresh();
  const url = new URL(`${origin}/mcp`);
  const modern = new ClientV2(
    { name: 'test-v2-modern', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await modern.connect(new TransportV2(url));
  assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
  const v2 = new ClientV2({ name: 'test-v2-default', version: '1' });
  await v2.connect(new TransportV2(url));
  const v1 = new ClientV1({ name: 'test-v1', version: '1' });
  const t1 = new TransportV1(url);
  await v1.connect(t1);
  assert.equal(t1.sessionId, undefined, 'stateless: no session id');
  clients.push(
    ['v2 client, 2026-07-28', modern as unknown as AnyClient],
    ['v2 client, default (2025 era)', v2 as unknown as AnyClient],
    ['v1.32 client', v1 as unknown as AnyClient],
  );
});
after(async () => {
  for (const [, c] of clients) await c.close();
  fabric.stop();
  await app.close();
});

const http = async (path: string) => {
  const r = await fetch(`${origin}${path}`);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};
const call = async (c: AnyClient, name: string, args: Record<string, unknown> = {}) =>
  (await c.callTool({ name, arguments: args })) as ToolResult;

/** A successful call whose structuredContent equals the HTTP route's body. */
async function sameAsRoute(c: AnyClient, name: string, args: Record<string, unknown>, path: string) {
  const r = await call(c, name, args);
  assert.notEqual(r.isError, true, `${name}: ${r.content[0]?.text}`);
  const h = await http(path);
  assert.equal(h.status, 200, path);
  assert.deepEqual(r.structuredContent, h.body, `${name} ≠ GET ${path}`);
  assert.ok(
    r.content.length === 1 && r.content[0]!.type === 'text' && r.content[0]!.text!.length < 400,
    `${name}: one short text content`,
  );
  return r;
}

const activeCard = () => {
  const ev = state.current().release.evidence;
  return [...ev.cards.values()].find(
    (c) => c.sig_ed25519 !== null && !ev.withdrawn.has(c.sha256) && !ev.superseded.has(c.sha256),
  )!;
};

describe('/mcp with the official clients of both eras', () => {
  it('each client lists exactly the 17 advertised tools, each with a closed input schema, a title and the read-only annotations', async () => {
    for (const [who, c] of clients) {
      const { tools } = await c.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [...FREE, ...METERED].sort(), who);
      for (const t of tools) {
        assert.equal(t.inputSchema.type, 'object', `${who} ${t.name}`);
        assert.equal(t.inputSchema.additionalProperties, false, `${who} ${t.name}: unknown properties are refused`);
        assert.deepEqual(
          [t.annotations?.readOnlyHint, t.annotations?.openWorldHint, t.annotations?.idempotentHint],
          [true, false, true],
          `${who} ${t.name}`,
        );
        assert.ok(t.title && t.description && t.description.length > 20, `${who} ${t.name}`);
      }
      assert.ok(!tools.some((t) => t.name === 'witness_hash'), `${who}: witness_hash is not listed`);
    }
  });

  it('every free document tool answers the same values as its HTTP route', async () => {
    const card = activeCard();
    const axis = state.current().knownAxes[0]!;
    for (const [who, c] of clients) {
      const board = await sameAsRoute(c, 'gspc_board', {}, '/api/gspc');
      assert.match(board.content[0]!.text!, /measured/, who);
      await sameAsRoute(c, 'gspc_board', { axis: 'jail' }, '/api/gspc?axis=jail');
      await sameAsRoute(c, 'gspc_card', { id: card.sha256.slice(0, 16) }, `/cards/${card.sha256.slice(0, 16)}.json`);
      await sameAsRoute(c, 'gspc_card', { id: card.sha256 }, `/cards/${card.sha256.slice(0, 16)}.json`);
      await sameAsRoute(c, 'gspc_card_matrix', {}, '/signed/card-matrix.json');
      await sameAsRoute(c, 'gspc_root', {}, '/root.json');
      await sameAsRoute(c, 'gspc_root_witness', {}, '/interop/root-witness-latest.json');
      await sameAsRoute(c, 'gspc_did_document', {}, '/.well-known/did.json');
      await sameAsRoute(c, 'gspc_corrections', {}, '/api/corrections');
      await sameAsRoute(c, 'regulation_deadlines', {}, '/api/regulation');
      await sameAsRoute(c, 'gspc_capability_fabric', {}, '/api/capability-fabric');
      await sameAsRoute(c, 'gspc_products', {}, '/api/x402');
      const a = await call(c, 'gspc_axis', { axis });
      assert.notEqual(a.isError, true, who);
      assert.deepEqual(
        a.structuredContent!.row,
        ((await http(`/api/gspc?axis=${axis}`)).body.axes as unknown[])[0],
        `${who}: the axis row`,
      );
      assert.deepEqual(
        a.structuredContent!.definition,
        (await http(`/peritem/axes/${axis}.json`)).body,
        `${who}: the axis definition`,
      );
      // Every model and pair: the same document as GET /api/models (a model comparison), or null.
      const models = await http(`/api/models?axis=${axis}`);
      assert.deepEqual(a.structuredContent!.models, models.status === 200 ? models.body : null, `${who}: the models`);
    }
  });

  it('an unknown axis is an isError result naming the known slugs, like the HTTP 404', async () => {
    const h = await http('/api/gspc?axis=no-such-axis');
    assert.equal(h.status, 404);
    for (const [who, c] of clients) {
      for (const name of ['gspc_board', 'gspc_axis']) {
        const r = await call(c, name, { axis: 'no-such-axis' });
        assert.equal(r.isError, true, `${who} ${name}`);
        assert.deepEqual(r.structuredContent, h.body, `${who} ${name}`);
        assert.match(r.content[0]!.text!, /known axes: governance, /, `${who} ${name}`);
      }
      const missing = await call(c, 'gspc_card', { id: '0'.repeat(16) });
      assert.deepEqual([missing.isError, missing.structuredContent?.code], [true, 'not_found'], who);
    }
  });

  it("arguments outside a tool's schema are refused (closed schemas)", async () => {
    for (const [who, c] of clients) {
      const r = await call(c, 'gspc_root', { extra: 1 });
      assert.equal(r.isError, true, who);
      assert.match(r.content[0]!.text!, /Unrecognized key/, who);
    }
  });

  it('verify_card: a real card is VALID (by JSON and by id), a card with one changed byte is INVALID with the failing check, as POST /api/verify says', async () => {
    const card = (await http(`/cards/${activeCard().sha256.slice(0, 16)}.json`)).body;
    const subject = card.subject as string;
    const tampered = { ...card, subject: `${subject.slice(0, -1)}${subject.endsWith('b') ? 'c' : 'b'}` };
    const post = async (body: unknown) =>
      (
        await fetch(`${origin}/api/verify`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json();
    for (const [who, c] of clients) {
      for (const args of [{ card }, { id: card.sha256 as string }, { id: (card.sha256 as string).slice(0, 16) }]) {
        const r = await call(c, 'verify_card', args);
        assert.notEqual(r.isError, true, who);
        assert.deepEqual(r.structuredContent, await post(card), `${who}: same document as POST /api/verify`);
        assert.equal((r.structuredContent!.results as { result: string }[])[0]!.result, 'VALID', who);
        assert.match(r.content[0]!.text!, /^VALID/, who);
      }
      const bad = await call(c, 'verify_card', { card: tampered });
      assert.deepEqual(bad.structuredContent, await post(tampered), `${who}: same document as POST /api/verify`);
      const verdict = (
        bad.structuredContent!.results as { result: string; checks: { check: string; ok: boolean }[] }[]
      )[0]!;
      assert.equal(verdict.result, 'INVALID', who);
      assert.deepEqual(
        verdict.checks.filter((x) => !x.ok).map((x) => x.check),
        ['content_address', 'signature'],
        who,
      );
      assert.match(bad.content[0]!.text!, /^INVALID: content_address: hash mismatch/, who);
      const neither = await call(c, 'verify_card', {});
      assert.deepEqual([neither.isError, neither.structuredContent?.code], [true, 'bad_body'], who);
      const unknown = await call(c, 'verify_card', { id: 'f'.repeat(64) });
      assert.deepEqual([unknown.isError, unknown.structuredContent?.code], [true, 'not_found'], who);
    }
  });

  it('witness_hash is not registered: a call gets the same unknown-tool error as a name that never existed', async () => {
    for (const [who, c] of clients) {
      const failure = async (name: string) => {
        try {
          await c.callTool({ name, arguments: {} });
        } catch (e) {
          return { code: (e as { code?: unknown }).code, message: (e as Error).message.replace(name, '<name>') };
        }
        return assert.fail(`${who}: ${name} was answered`);
      };
      const quarantined = await failure('witness_hash');
      assert.equal(quarantined.code, -32602, who);
      assert.match(quarantined.message, /Tool <name> not found/, who);
      assert.deepEqual(
        quarantined,
        await failure('no_such_tool_at_all'),
        `${who}: indistinguishable from an unknown tool`,
      );
    }
  });
});
