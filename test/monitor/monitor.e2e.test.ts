/**
 * `gspc monitor` (issue 31) against a real service and forged copies of it. An honest sequence
 * (A, then B published and served, watched through the origin and a faithful mirror) gives no
 * alert. Then each lie is caught: the origin rolled back to A; a copy that rewrote one entry and
 * re-signed its checkpoint with the board key (a fork: one root for some readers, another for
 * others); a copy that rewrote an entry without re-signing; a copy whose DID document names
 * another board key with no logged transition. The monitor's memory is its own state file.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import { logLeaves } from '../../src/core/evidence/card-log.js';
import { MerkleTree } from '../../src/core/evidence/merkle/merkle-tree.js';
import { formatCheckpoint } from '../../src/core/evidence/note/checkpoint.js';
import { signCosignature } from '../../src/core/evidence/note/cosignature.js';
import { decideAddCheckpoint } from '../../src/core/evidence/note/witness.js';
import {
  ed25519NoteVerifier,
  formatNote,
  formatSignatureLine,
  keyId,
  noteSignature,
  SIG_TYPE_COSIGNATURE_V1,
  SIG_TYPE_ED25519,
} from '../../src/core/evidence/note/signed-note.js';
import { formatVerifierKey } from '../../src/core/evidence/note/verifier-key.js';
import { runMonitorService } from '../../src/verify/monitor-service.js';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveOf } from '../../src/service.js';
import { gspc } from '../helpers/cli.js';
import { freePort } from '../helpers/process.js';
import { demoCopy, demoCorpus, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON lines */
type Json = any;

const data = tempDir();
const keyDir = join(data, 'keys');
const stateDir = tempDir();
const ids: string[] = [];
let origin = '';
let port = 0;
let state: ServedState;
let app: ReturnType<typeof buildApp>;
const servers: Server[] = [];

/** A view that answers like the origin except for the paths `override` gives. */
async function copyOf(override: (path: string, honest: () => Promise<Buffer>) => Promise<Buffer | undefined>) {
  const server = createServer(async (req, res) => {
    const honest = async () => Buffer.from(await (await fetch(`${origin}${req.url}`)).arrayBuffer());
    const upstream = await fetch(`${origin}${req.url}`);
    const body = (await override(req.url!, honest)) ?? Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A tlog-witness at /add-checkpoint answering what `answer` decides for each request body. */
async function witnessServer(answer: (body: string) => [number, string]): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const [status, text] = answer(body);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** `entries` with one replaced, and a checkpoint over them that the board key signs. */
function forgedLog(entries: string[]): { entries: string[]; checkpoint: string } {
  const forged = [...entries];
  forged[3] = 'ab'.repeat(32);
  const seed = Buffer.from(readFileSync(join(keyDir, 'board-attestation-1.key'), 'utf8').trim(), 'base64url');
  const pair = keyPairFromSeed(seed);
  const logOrigin = `localhost:${port}/log`;
  const text = formatCheckpoint({
    origin: logOrigin,
    size: forged.length,
    rootHash: new MerkleTree(logLeaves(forged)).root(),
    extensions: [],
  });
  const line = noteSignature(
    logOrigin,
    keyId(logOrigin, SIG_TYPE_ED25519, pair.publicKey),
    sign(pair.privateKey, Buffer.from(text)),
  );
  return { entries: forged, checkpoint: formatNote(text, [line]) };
}

async function monitor(...views: string[]): Promise<{ status: number; lines: Json[] }> {
  const r = await gspc(['monitor', ...views, '--state', stateDir, '--once']);
  return {
    status: r.status,
    lines: r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
  };
}
const kinds = (lines: Json[]) => lines.map((l) => l.alert ?? l.status);

describe('gspc monitor', () => {
  before(async () => {
    port = await freePort();
    origin = `http://localhost:${port}`;
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    const later = demoCopy();
    const board = JSON.parse(readFileSync(join(later, 'board.json'), 'utf8'));
    writeFileSync(join(later, 'board.json'), JSON.stringify({ ...board, as_of: '2026-11-21T00:00:00Z' }, null, 2));
    for (const corpus of [demoCorpus, later]) {
      const r = await gspc(['publish', corpus, '--data-dir', data, '--public-url', origin]);
      assert.equal(r.status, 0, r.stderr);
      ids.push(/^published (r-[0-9a-f]{20})/.exec(r.stdout)![1]!);
    }
    state = new ServedState(
      loadRelease(join(data, 'releases', ids[0]!)),
      liveOf(signingContext(keyDir, `localhost:${port}`)),
    );
    app = buildApp({ state, logLevel: 'silent', baseUrl: origin });
    await app.listen({ host: '127.0.0.1', port });
  });
  after(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
    await app.close();
  });

  it('an honest sequence through the origin and a faithful mirror: no alert, and the state remembers the last checkpoint', async () => {
    const mirror = await copyOf(async () => undefined);
    const first = await monitor(origin, mirror);
    assert.deepEqual([first.status, kinds(first.lines)], [0, ['ok']]);
    assert.equal(first.lines[0].size, 36);
    state.swap(loadRelease(join(data, 'releases', ids[1]!)));
    const second = await monitor(origin, mirror);
    assert.deepEqual([second.status, kinds(second.lines)], [0, ['ok']]);
    assert.ok(second.lines[0].size > 36);
    const saved = JSON.parse(readFileSync(join(stateDir, 'monitor.json'), 'utf8'));
    assert.equal(saved.last.size, second.lines[0].size);
  });

  it('a rollback: the origin serves A again, a smaller tree than the monitor verified', async () => {
    state.swap(loadRelease(join(data, 'releases', ids[0]!)));
    const r = await monitor(origin);
    assert.equal(r.status, 1);
    assert.deepEqual(kinds(r.lines), ['rollback']);
    assert.match(r.lines[0].detail, /the log has 36 entries, fewer than the \d+ this monitor verified before/);
    state.swap(loadRelease(join(data, 'releases', ids[1]!)));
    assert.deepEqual(kinds((await monitor(origin)).lines), ['ok'], 'the state kept the larger checkpoint');
  });

  it('a fork: a copy rewrote one entry and re-signed the checkpoint with the board key', async () => {
    const entriesDoc = JSON.parse(
      Buffer.from(await (await fetch(`${origin}/log/entries.json`)).arrayBuffer()).toString(),
    );
    const forged = forgedLog(entriesDoc.entries);
    const copy = await copyOf(async (path) =>
      path === '/log/entries.json'
        ? Buffer.from(JSON.stringify({ ...entriesDoc, entries: forged.entries }))
        : path === '/log/checkpoint'
          ? Buffer.from(forged.checkpoint)
          : undefined,
    );
    const r = await monitor(origin, copy);
    assert.equal(r.status, 1);
    const found = kinds(r.lines);
    assert.ok(found.includes('fork'), JSON.stringify(r.lines));
    assert.ok(found.includes('split_view'), JSON.stringify(r.lines));
    assert.match(
      r.lines.find((l) => l.alert === 'fork').detail,
      /at size \d+ the root is [0-9a-f]{64}, not the [0-9a-f]{64} this monitor verified/,
    );
  });

  it('a rewritten entry without a new signature: the entries do not give the signed root', async () => {
    const copy = await copyOf(async (path, honest) => {
      if (path !== '/log/entries.json') return undefined;
      const doc = JSON.parse((await honest()).toString());
      doc.entries[5] = 'cd'.repeat(32);
      return Buffer.from(JSON.stringify(doc));
    });
    const r = await monitor(copy);
    assert.deepEqual([r.status, kinds(r.lines)], [1, ['entries_rewritten']]);
  });

  it('a DID document naming another board key, with no logged transition to it', async () => {
    const other = keyPairFromSeed(Buffer.alloc(32, 77));
    const copy = await copyOf(async (path, honest) => {
      if (path === '/.well-known/did.json') {
        const did = JSON.parse((await honest()).toString());
        did.verificationMethod.find((m: Json) => m.id.endsWith('#board-attestation-1')).publicKeyJwk.x =
          other.publicKey.toString('base64url');
        return Buffer.from(JSON.stringify(did));
      }
      if (path === '/log/checkpoint') {
        const note = (await honest()).toString();
        const text = note.slice(0, note.lastIndexOf('\n\n') + 1);
        const name = text.split('\n')[0]!;
        const line = noteSignature(
          name,
          keyId(name, SIG_TYPE_ED25519, other.publicKey),
          sign(other.privateKey, Buffer.from(text)),
        );
        return Buffer.from(formatNote(text, [line]));
      }
      return undefined;
    });
    const r = await monitor(copy);
    assert.equal(r.status, 1);
    assert.ok(kinds(r.lines).includes('key_changed_without_transition'), JSON.stringify(r.lines));
  });

  it('a witness quorum the reader chooses: two of three required, none cosigned; quorum none passes', async () => {
    const vkey = (n: number) =>
      formatVerifierKey(`w${n}.example`, keyPairFromSeed(Buffer.alloc(32, n)).publicKey, SIG_TYPE_COSIGNATURE_V1);
    const strict = join(tempDir(), 'policy');
    writeFileSync(
      strict,
      `witness A ${vkey(1)}\nwitness B ${vkey(2)}\nwitness C ${vkey(3)}\ngroup g 2 A B C\nquorum g\n`,
    );
    const r = await gspc(['monitor', origin, '--state', stateDir, '--once', '--witness-policy', strict]);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    assert.deepEqual([r.status, kinds(lines)], [1, ['witness_quorum']]);
    assert.match(lines[0].detail, /quorum g does not hold: cosigned by no witness of the policy/);
    const none = join(tempDir(), 'none');
    writeFileSync(none, 'quorum none\n');
    const ok = await gspc(['monitor', origin, '--state', stateDir, '--once', '--witness-policy', none]);
    assert.equal(ok.status, 0, ok.stdout);
  });

  it('--submit-witness: a newly verified checkpoint goes to each tlog-witness; one that cosigned a larger tree is a fork alarm', async () => {
    const boardKey = keyPairFromSeed(
      Buffer.from(readFileSync(join(keyDir, 'board-attestation-1.key'), 'utf8').trim(), 'base64url'),
    ).publicKey;
    const logName = `localhost:${port}/log`;
    let cosigned = 0;
    const witness = await witnessServer((body) => {
      const d = decideAddCheckpoint(body, (o) =>
        o === logName ? { verifiers: [ed25519NoteVerifier(logName, boardKey)], latest: null } : undefined,
      );
      if (d.status !== 200) return [d.status, 'reason' in d ? d.reason : ''];
      cosigned++;
      const line = signCosignature(d.text, { name: 'witness.example', privateKey: Buffer.alloc(32, 5) }, 1_800_000_000);
      return [200, formatSignatureLine(line)];
    });
    const ahead = await witnessServer(() => [409, '99999999\n']);
    const fresh = tempDir();
    const r = await gspc(['monitor', origin, '--state', fresh, '--once', '--submit-witness', witness]);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    assert.deepEqual([r.status, kinds(lines)], [0, ['submitted', 'ok']], r.stdout);
    assert.deepEqual([lines[0].witness, lines[0].cosigned, cosigned], [witness, true, 1]);
    const forked = await gspc(['monitor', origin, '--state', tempDir(), '--once', '--submit-witness', ahead]);
    const alarm = forked.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Json);
    assert.equal(forked.status, 1);
    assert.deepEqual(kinds(alarm), ['fork']);
    assert.match(alarm[0].detail, /the witness has cosigned size 99999999, larger than this log/);
  });

  it('as a service: it polls until stopped and serves Prometheus metrics', async () => {
    const stop = new AbortController();
    const polls: number[] = [];
    const service = await runMonitorService({
      views: [origin],
      stateDir,
      intervalSeconds: 1,
      now: () => new Date(),
      metricsPort: 0,
      onPoll: (alerts) => polls.push(alerts.length),
      signal: stop.signal,
    });
    while (polls.length < 2) await new Promise((r) => setTimeout(r, 100));
    const metrics = await (await fetch(service.metricsUrl!)).text();
    stop.abort();
    await service.done;
    assert.deepEqual(polls.slice(0, 2), [0, 0]);
    assert.match(metrics, /^gspc_monitor_verified_log_size \d+$/m);
    assert.match(metrics, /^gspc_monitor_last_poll_clean 1$/m);
    assert.match(metrics, /^gspc_monitor_views 1$/m);
  });

  it('refused: a view that is not a URL; an unreachable view is an alert, not a crash', async () => {
    const bad = await gspc(['monitor', 'localhost', '--state', stateDir, '--once']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /localhost is not an http\(s\) URL of a view/);
    const gone = await monitor(`http://127.0.0.1:${await freePort()}`);
    assert.deepEqual([gone.status, kinds(gone.lines)], [1, ['unreachable']]);
    // A state path that cannot be a directory is refused before anything is fetched.
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const badState = await gspc(['monitor', origin, '--state', join(file, 'state'), '--once']);
    assert.equal(badState.status, 2);
    assert.match(badState.stderr, /--state .*: its parent .*a-file is not a writable directory \(not a directory\)/);
    // gspc verify and gspc diff of a URL that answers nothing: a clear refusal, not a stack.
    const closed = `http://127.0.0.1:${await freePort()}`;
    for (const args of [
      ['verify', closed],
      ['diff', closed, closed],
    ]) {
      const r = await gspc(args);
      assert.equal(r.status, 2, args[0]);
      assert.match(r.stderr, /^gspc: http:\/\/127\.0\.0\.1:\d+\/\S+ could not be fetched: ECONNREFUSED/);
    }
  });
});
