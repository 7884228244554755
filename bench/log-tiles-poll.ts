/**
 * Reading the card log by its C2SP tlog-tiles (issue 42, item 3; docs/performance.md §19):
 * `node --import tsx bench/log-tiles-poll.ts [sizes...]` (default 10,000, 1,000,000 and
 * 10,000,000 entries; standalone, not in `npm run bench`). For each size, a log of synthetic
 * 32-byte entries is built in memory and its tiles served over HTTP on 127.0.0.1 (a Node server
 * answering from the stored tree, as src/serve/log-tiles.ts does), with a signed checkpoint.
 * Measured with src/verify/log-tile-reader.ts, the reader `gspc monitor` is to use:
 *
 * - a poll after 1,000 new entries: GET /log/checkpoint, its signature checked, then the
 *   consistency proof from the size verified before computed from the tiles it needs;
 * - a poll of an unchanged log: the checkpoint alone;
 * - a card's inclusion check: the tiles of one entry's proof against the signed root.
 *
 * Each is run 5 times with a fresh reader (no kept tile), and the median time is reported with
 * the requests and bytes (checkpoint included). Goal (issue 42): under 1 s and 100 kB a poll at
 * 10,000,000 entries.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { leafHash } from '../src/core/evidence/merkle/hash.js';
import { MerkleTree } from '../src/core/evidence/merkle/merkle-tree.js';
import { rangeHash, type Subtree } from '../src/core/evidence/merkle/tile-proofs.js';
import { parseTilePath, tileBytes, tileWidth } from '../src/core/evidence/merkle/tiles.js';
import { formatCheckpoint, openCheckpoint } from '../src/core/evidence/note/checkpoint.js';
import { ed25519NoteVerifier, signNote } from '../src/core/evidence/note/signed-note.js';
import { keyPairFromSeed } from '../src/core/crypto/ed25519.js';
import { LogTileReader } from '../src/verify/log-tile-reader.js';

const ORIGIN = 'bench.example/log';
const SEED = Buffer.alloc(32, 3);
const verifier = ed25519NoteVerifier(ORIGIN, keyPairFromSeed(SEED).publicKey);

function entry(i: number): Uint8Array {
  const e = new Uint8Array(32);
  new DataView(e.buffer).setUint32(0, i);
  new DataView(e.buffer).setUint32(4, i >>> 16);
  return e;
}

async function measure(size: number) {
  const t0 = performance.now();
  const leaves = new Uint8Array(size * 32);
  for (let i = 0; i < size; i++) leaves.set(leafHash(entry(i)), i * 32);
  const tree = new MerkleTree(leaves);
  const buildMs = performance.now() - t0;
  const rootAt = (n: number) => rangeHash((s: Subtree) => tree.hashes(s.level, s.index, 1), 0, n);
  const note = (n: number) =>
    signNote(formatCheckpoint({ origin: ORIGIN, size: n, rootHash: rootAt(n), extensions: [] }), {
      name: ORIGIN,
      privateKey: SEED,
    });
  const checkpoint = Buffer.from(note(size));
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    if (path === '/log/checkpoint') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(checkpoint);
      return;
    }
    const a = path.startsWith('/log/') ? parseTilePath(path.slice(5)) : undefined;
    const t = a?.kind === 'hash' ? a.tile : undefined;
    if (t === undefined || t.index * 256 * 256 ** t.level >= size || tileWidth(size, t.level, t.index) !== t.width) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from(tileBytes(tree, t)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string) => {
    const r = await fetch(`${base}${path}`);
    return r.status === 200 ? new Uint8Array(await r.arrayBuffer()) : undefined;
  };
  const before = { size: size - 1000, root: rootAt(size - 1000) };
  const runs = async (f: () => Promise<{ requests: number; bytes: number; ok: boolean }>) => {
    const out: { ms: number; requests: number; bytes: number; ok: boolean }[] = [];
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      const r = await f();
      out.push({ ms: performance.now() - s, ...r });
    }
    out.sort((a, b) => a.ms - b.ms);
    return out[2]!;
  };
  /** One poll: the checkpoint, its signature, then consistency from `last` by the tiles. */
  const poll = (last: { size: number; root: Uint8Array }) => async () => {
    const reader = new LogTileReader(get);
    const bytes = (await get('/log/checkpoint'))!;
    const cp = openCheckpoint(bytes, [verifier], { origin: ORIGIN });
    if (!cp.ok) throw new Error(cp.reason);
    const v = await reader.consistency(last.size, last.root, cp.checkpoint.size, cp.checkpoint.rootHash);
    return { ok: v.ok, requests: 1 + reader.reads.requests, bytes: bytes.length + reader.reads.bytes };
  };
  const grown = await runs(poll(before));
  const unchanged = await runs(poll({ size, root: rootAt(size) }));
  const index = Math.floor(size * 0.37);
  const inclusion = await runs(async () => {
    const reader = new LogTileReader(get);
    const v = await reader.inclusion(index, entry(index), size, rootAt(size));
    return { ok: v.ok, requests: reader.reads.requests, bytes: reader.reads.bytes };
  });
  server.close();
  return { size, buildMs, grown, unchanged, inclusion };
}

const sizes = process.argv.slice(2).map(Number);
for (const size of sizes.length > 0 ? sizes : [10_000, 1_000_000, 10_000_000]) {
  const r = await measure(size);
  const row = (what: string, m: { ms: number; requests: number; bytes: number; ok: boolean }) =>
    `  ${what.padEnd(34)} ${m.ok ? 'ok  ' : 'FAIL'} ${String(m.requests).padStart(3)} requests ${String(m.bytes).padStart(7)} bytes ${m.ms.toFixed(2).padStart(8)} ms`;
  console.log(`${r.size.toLocaleString('en-US')} entries (tree built in ${(r.buildMs / 1000).toFixed(1)} s)`);
  console.log(row('poll after 1,000 new entries', r.grown));
  console.log(row('poll of an unchanged log', r.unchanged));
  console.log(row('inclusion of one entry', r.inclusion));
}
