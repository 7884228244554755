/**
 * The metered evidence tools of `/mcp` (issue 6), with the official v2 and v1.32 clients against
 * the real app listening on a port: each answers its product's free preview and the same x402 v2
 * challenge as the HTTP 402 for the same query, never the artefact; without products they answer
 * an isError result saying the rail is not served here.
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
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const BASE = 'http://localhost:8080';

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
interface AnyClient {
  callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

const signing = testSigning();
const { dir } = publishRelease(demoCorpus, tempDir(), signing.inputs);
const release = loadRelease(dir);
// The payee is set so the challenge carries a signed offer (as in production); nothing is paid here.
const rail = readRailConfig({ GSPC_PAY_TO: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' });
const withProducts = buildApp({
  state: new ServedState(release, liveSigning(signing)),
  logLevel: 'silent',
  baseUrl: BASE,
  now: () => NOW,
  products: { rail },
});
const withoutProducts = buildApp({ state: new ServedState(release, liveSigning(signing)), logLevel: 'silent' });
const origins = { with: '', without: '' };
const clients: { with: [string, AnyClient][]; without: [string, AnyClient][] } = { with: [], without: [] };

async function connect(origin: string): Promise<[string, AnyClient][]> {
  const url = new URL(`${origin}/mcp`);
  const modern = new ClientV2({ name: 'test', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new TransportV2(url));
  const v1 = new ClientV1({ name: 'test', version: '1' });
  await v1.connect(new TransportV1(url));
  return [
    ['v2 client (2026-07-28)', modern as unknown as AnyClient],
    ['v1.32 client', v1 as unknown as AnyClient],
  ];
}

before(async () => {
  for (const [k, app] of [
    ['with', withProducts],
    ['without', withoutProducts],
  ] as const) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    origins[k] = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    clients[k] = await connect(origins[k]);
  }
});
after(async () => {
  for (const [, c] of [...clients.with, ...clients.without]) await c.close();
  await withProducts.close();
  await withoutProducts.close();
});

const call = async (c: AnyClient, name: string, args: Record<string, unknown> = {}) =>
  (await c.callTool({ name, arguments: args })) as ToolResult;

const signedSubject = [...release.evidence.cards.values()].find(
  (c) => c.surface === 'board.measurement' && c.sig_ed25519 !== null,
)!.subject;
const obligation = release.corpus.obligations[0]!.id;

// Tool, arguments, and the HTTP request that answers the same challenge.
const CASES: [string, Record<string, string>, string][] = [
  ['gspc_free_door', {}, '/api/free-door'],
  [
    'gspc_request_attestation',
    { subject: signedSubject },
    `/api/request-attestation?subject=${encodeURIComponent(signedSubject)}`,
  ],
  [
    'gspc_request_attestation',
    { subject: signedSubject, axis: 'governance' },
    `/api/request-attestation?subject=${encodeURIComponent(signedSubject)}&axis=governance`,
  ],
  ['gspc_evidence_bundle', { obligation }, `/api/evidence-bundle?obligation=${obligation}&bundle=1`],
  [
    'gspc_evidence_bundle',
    { obligation, subject: signedSubject },
    `/api/evidence-bundle?obligation=${obligation}&bundle=1&subject=${encodeURIComponent(signedSubject)}`,
  ],
  ['gspc_eunomia_data', { feed: '1' }, '/api/eunomia-data?feed=1'],
];

describe('/mcp metered evidence tools', () => {
  it('each answers the free preview and the same x402 v2 challenge as the HTTP 402 for the same query, never the artefact', async () => {
    for (const [who, c] of clients.with) {
      for (const [name, args, path] of CASES) {
        const r = await call(c, name, args);
        assert.notEqual(r.isError, true, `${who} ${name}: ${r.content[0]?.text}`);
        const res = await fetch(`${origins.with}${path}`);
        assert.equal(res.status, 402, path);
        const challenge = (await res.json()) as {
          x402Version: number;
          accepts: unknown[];
          extensions: Record<string, unknown>;
          svc: { preview: unknown };
          resource: { url: string };
        };
        const s = r.structuredContent as {
          pay_at: string;
          method: string;
          preview: unknown;
          challenge: typeof challenge;
        };
        assert.equal(s.pay_at, `${BASE}${path}`, `${who} ${name}: the resource URL to pay at`);
        assert.equal(s.method, 'GET');
        assert.deepEqual(s.challenge.accepts[0], challenge.accepts[0], `${who} ${name}: accepts entry`);
        // The whole 402 body, but for the sign-in nonce each HTTP 402 draws (decision P45).
        const nonceless = (b: typeof challenge) => {
          const c = structuredClone(b) as typeof challenge & {
            extensions: { 'sign-in-with-x': { info: { nonce?: string } } };
          };
          delete c.extensions['sign-in-with-x'].info.nonce;
          return c;
        };
        assert.deepEqual(nonceless(s.challenge), nonceless(challenge), `${who} ${name}: the whole 402 body`);
        assert.equal(s.challenge.x402Version, 2);
        assert.ok(
          s.challenge.extensions.bazaar && s.challenge.extensions['offer-receipt'],
          `${who} ${name}: extensions`,
        );
        assert.deepEqual(s.preview, challenge.svc.preview, `${who} ${name}: the free preview`);
        assert.ok(!('artefact' in s) && !('receipt' in s), `${who} ${name}: no artefact`);
        assert.match(r.content[0]!.text!, /paid at GET http:\/\/localhost:8080\/api\//, `${who} ${name}`);
      }
    }
  });

  it("a bad query is the route's 400 as an isError result; arguments outside the product's query are refused", async () => {
    const h = await fetch(`${origins.with}/api/evidence-bundle?obligation=no-such-obligation&bundle=1`);
    assert.equal(h.status, 400);
    const body = await h.json();
    for (const [who, c] of clients.with) {
      const r = await call(c, 'gspc_evidence_bundle', { obligation: 'no-such-obligation' });
      assert.equal(r.isError, true, who);
      assert.deepEqual(r.structuredContent, body, who);
      // An invoice records a ledger entry, so the tool does not take invoice parameters.
      const invoice = await call(c, 'gspc_evidence_bundle', {
        obligation,
        invoice: 'gbp',
        commissioned_by: 'Example Ltd',
      });
      assert.equal(invoice.isError, true, who);
      assert.match(invoice.content[0]!.text!, /Unrecognized keys?/, who);
      const noFeed = await call(c, 'gspc_eunomia_data', {});
      assert.equal(noFeed.isError, true, `${who}: feed=1 is required, as in the HTTP query`);
    }
  });

  it('without products, the metered tools and the catalogue exist but answer that the rail is not served here', async () => {
    for (const [who, c] of clients.without) {
      for (const [name, args] of [...CASES.map(([n, a]) => [n, a] as const), ['gspc_products', {}] as const]) {
        const r = await call(c, name, args);
        assert.equal(r.isError, true, `${who} ${name}`);
        assert.equal(r.structuredContent?.code, 'not_found', `${who} ${name}`);
        assert.match(r.content[0]!.text!, /serves no metered products \(no payment rail here\)/, `${who} ${name}`);
      }
      assert.equal(
        (await fetch(`${origins.without}/api/free-door`)).status,
        404,
        'the HTTP route is not served either',
      );
      const board = await call(c, 'gspc_board');
      assert.notEqual(board.isError, true, `${who}: free tools still answer`);
    }
  });
});
