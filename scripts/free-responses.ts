/**
 * Every free response of the demo release, dumped for a byte-for-byte comparison across a
 * refactor: each free GET path (every registry path plus pages, assets, previews and error
 * cases), the free POST verifications, the MCP tools and A2A skills, on a fixed clock with the
 * rail unconfigured. Run it before and after a change on the same data directory (its keys and
 * release are created on the first run) and `diff -r` the two outputs; the A2A message ids are
 * random, so they are written as <uuid>.
 *
 *   node --import tsx scripts/free-responses.ts <data-dir> <out-dir>
 */
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { buildApp } from '../src/app.js';
import { ServedState } from '../src/serve/served-state.js';
import { keygen } from '../src/keys/key-store.js';
import { signingContext } from '../src/keys/signing.js';
import { loadRelease } from '../src/release/load.js';
import { publishRelease } from '../src/release/publish.js';
import { readRailConfig } from '../src/config.js';
import { openLedger } from '../src/store/open-ledger.js';
import { FabricObserver } from '../src/status/fabric-observer.js';
import { NO_SOURCES } from '../src/serve/context.js';

const [base, out] = process.argv.slice(2);
if (!base || !out) throw new Error('usage: node --import tsx scripts/free-responses.ts <data-dir> <out-dir>');
if (!existsSync(join(base, 'keys'))) {
  keygen(join(base, 'keys'));
  publishRelease(
    new URL('../demo/corpus', import.meta.url).pathname,
    base,
    signingContext(join(base, 'keys'), 'localhost:8080').inputs,
  );
}
// A copy, so that the ledger and any state written while answering never touch the original.
const work = join(tmpdir(), `gspc-free-responses-${process.pid}`);
rmSync(work, { recursive: true, force: true });
cpSync(base, work, { recursive: true, verbatimSymlinks: true });
const signing = signingContext(join(work, 'keys'), 'localhost:8080');
const dir = join(work, 'releases', readdirSync(join(work, 'releases'))[0]!);
const now = () => new Date('2026-11-20T12:00:00Z');
const state = new ServedState(loadRelease(dir), {
  boardKey: signing.inputs.boardKey,
  published: signing.keys.published,
  did: signing.did,
  cardKey: signing.keys.state('card-attestation-2'),
});
const ledger = await openLedger({ sqlitePath: join(work, 'ledger.sqlite') });
const baseUrl = 'http://localhost:8080';
const fabric = new FabricObserver({
  origin: baseUrl,
  timeoutMs: 3500,
  fetch: (u, i) => fetch(u, i),
  now,
  refreshMs: 60000,
});
const app = buildApp({
  state,
  logLevel: 'silent',
  baseUrl,
  now,
  ledger,
  sources: NO_SOURCES,
  fabric,
  products: { rail: readRailConfig({}), facilitatorTimeoutMs: 15000 },
});
const cur = state.current();
const paths = new Set<string>([
  '/api/gspc',
  '/api/gspc?axis=nope',
  '/api/gspc?bad=1',
  '/healthz',
  '/api/x402',
  '/.well-known/x402.json',
  '/api/revenue',
  '/api/capability-fabric',
  '/api/hub-cards',
  '/api/dashboard/stats',
  '/api/corrections',
  '/api/regulation',
  '/api/reported',
  '/api/east-west-bench',
  '/api/insurability-pack',
  '/api/compute',
  '/api/provider-canary',
  '/api/xrpl',
  '/api/action-jobs',
  '/api/oracle-fleet',
  '/.well-known/agent-card.json',
  '/.well-known/agent.json',
  '/api/a2a',
  '/api/agui/gspc-state?x=1',
  '/dashboard',
  '/dashboard?tab=measured',
  '/dashboard?tab=regulators',
  '/dashboard?tab=provenance',
  '/dashboard?tab=compute',
  '/dashboard?tab=bad',
  '/methodology',
  '/pricing',
  '/gspc-verify',
  '/assets/site.css',
  '/assets/verify.js',
  '/assets/dashboard.js',
  '/assets/nope.js',
  '/cards/0000000000000000.json',
  '/cards/xyz',
  '/corrections/C-2026-0101-01.json',
  '/corrections/bad',
  '/log/consistency?from=999999',
  '/nope',
  '/api/free-door',
  '/api/request-attestation',
  '/api/evidence-bundle?obligation=article-50',
  '/api/evidence-bundle',
  '/api/eunomia-data',
]);
for (const a of cur.knownAxes) paths.add(`/api/gspc?axis=${a}`);
for (const p of cur.files.keys()) paths.add(p);
for (const p of cur.files.keys()) {
  const m = /^\/cards\/([0-9a-f]{16})\.json$/.exec(p);
  if (m) paths.add(`/cards/${m[1]}.proof.json`);
}
for (let i = 0; i <= cur.log.size; i++) paths.add(`/log/consistency?from=${i}`);
for (const e of cur.release.corpus.status.corrections?.entries ?? []) paths.add(`/corrections/${e.id}.json`);
mkdirSync(out, { recursive: true });
const lines: string[] = [];
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
for (const p of [...paths].sort()) {
  const r = await app.inject({ method: 'GET', url: p });
  const h = Object.entries(r.headers)
    .filter(([k]) => !VOLATILE.has(k))
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  const name = createHash('sha256').update(p).digest('hex').slice(0, 16);
  writeFileSync(join(out, name), `${p}\n${r.statusCode}\n${h}\n\n${r.body}`);
  lines.push(`${name} ${r.statusCode} ${createHash('sha256').update(r.rawPayload).digest('hex').slice(0, 16)} ${p}`);
}
// free POSTs
const bundle = cur.files.get('/cards-bundle.json')!.body.toString();
for (const [url, body] of [
  ['/api/verify', bundle],
  ['/api/verify', '{"ids":["zz"]}'],
  ['/api/receipts/verify', '{}'],
] as const) {
  const r = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: body });
  const name = createHash('sha256')
    .update(url + body)
    .digest('hex')
    .slice(0, 16);
  writeFileSync(join(out, name), `POST ${url}\n${r.statusCode}\n\n${r.body}`);
  lines.push(
    `${name} ${r.statusCode} ${createHash('sha256').update(r.rawPayload).digest('hex').slice(0, 16)} POST ${url}`,
  );
}
const tools: [string, Record<string, unknown>][] = [
  ['gspc_board', {}],
  ['gspc_axis', { axis: cur.knownAxes[0] }],
  ['gspc_axis', { axis: 'nope' }],
  ['gspc_card_matrix', {}],
  ['gspc_root', {}],
  ['gspc_root_witness', {}],
  ['gspc_did_document', {}],
  ['gspc_corrections', {}],
  ['regulation_deadlines', {}],
  ['gspc_capability_fabric', {}],
  ['gspc_products', {}],
  ['gspc_free_door', {}],
  ['gspc_eunomia_data', {}],
  ['gspc_evidence_bundle', { obligation: 'article-50' }],
  ['gspc_request_attestation', {}],
  ['tools/list', {}],
];
const cardId = [...cur.files.keys()].map((p) => /^\/cards\/([0-9a-f]{16})\.json$/.exec(p)?.[1]).find(Boolean)!;
tools.push(['gspc_card', { id: cardId }], ['verify_card', { id: cardId }]);
for (const [name, args] of tools) {
  const body =
    name === 'tools/list'
      ? { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }
      : { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } };
  const r = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: JSON.stringify(body),
  });
  const key = 'MCP ' + name + ' ' + JSON.stringify(args);
  const n = createHash('sha256').update(key).digest('hex').slice(0, 16);
  const norm = r.body.replace(/"(messageId|contextId)":"[0-9a-f-]{36}"/g, `"$1":"<uuid>"`);
  writeFileSync(join(out, n), `${key}\n${r.statusCode}\n\n${norm}`);
  lines.push(`${n} ${r.statusCode} ${createHash('sha256').update(norm).digest('hex').slice(0, 16)} ${key}`);
}
for (const text of [
  'board summary',
  'axis ' + cur.knownAxes[0],
  'regulation deadlines',
  'root pointer',
  'card ' + cardId,
  'capability fabric',
  'corrections',
  'products',
  'did keys',
  'verify card ' + cardId,
]) {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text }] } },
  };
  const r = await app.inject({
    method: 'POST',
    url: '/api/a2a',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    payload: JSON.stringify(body),
  });
  const key = 'A2A ' + text;
  const n = createHash('sha256').update(key).digest('hex').slice(0, 16);
  const norm = r.body.replace(/"(messageId|contextId)":"[0-9a-f-]{36}"/g, `"$1":"<uuid>"`);
  writeFileSync(join(out, n), `${key}\n${r.statusCode}\n\n${norm}`);
  lines.push(`${n} ${r.statusCode} ${createHash('sha256').update(norm).digest('hex').slice(0, 16)} ${key}`);
}
writeFileSync(join(out, 'INDEX'), lines.join('\n') + '\n');
console.log(lines.length, 'responses');
await app.close();
await ledger.close();
rmSync(work, { recursive: true, force: true });
