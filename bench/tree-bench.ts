/**
 * Merkle tree throughput at release scale, against raw hashing measured in the same run:
 *
 *   node --import tsx bench/tree-bench.ts [leaves]     (default 1,000,000)
 *
 * Anchor: SHA-256 of 2n distinct 64-byte inputs with the same one-shot node:crypto call the trees
 * use, i.e. the hashing any tree over n leaves must do (n leaf hashes + n − 1 node hashes). It is
 * measured before and after the trees and averaged, so drifting machine load hits both sides.
 *
 * Measured: n leaf hashes SHA-256(0x00 ‖ 32-byte content address); the RFC 6962 `MerkleTree`
 * (build + root) and every one of its n inclusion proofs (the log); the root v1 `DupTree` (build
 * + root) and every one of its n proofs (the public root). Goal: each of log and root v1,
 * leaf hashing + build + all proofs, ≤ 2× the anchor. Reported, not enforced; a run whose
 * proofs do not verify or do not add up is invalid and throws.
 */
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  DupTree,
  leafHash,
  MerkleTree,
  verifyDupInclusion,
  verifyInclusion,
} from '../src/core/evidence/merkle/index.js';
import { sha256 } from '../src/core/evidence/merkle/hash.js';
import { machineBusy, machineJiffies } from './machine-load.js';

export interface TreeShapeFigures {
  buildMs: number;
  proofsMs: number;
  /** leaf hashing + build + all proofs. */
  totalMs: number;
  /** totalMs / anchorMs (goal ≤ 2). */
  ratio: number;
  /** (leaf hashing + build) / anchorMs: the root alone. */
  rootRatio: number;
  rootHex: string;
  proofElements: number;
}

export interface TreeBenchFigures {
  leaves: number;
  /** Mean of the two anchor runs. */
  anchorMs: number;
  anchorRunsMs: [number, number];
  leafHashMs: number;
  log: TreeShapeFigures;
  rootV1: TreeShapeFigures;
  /** CPU used by other processes during the run, % of one core (Linux; undefined elsewhere). */
  otherCpu: number | undefined;
  node: string;
}

// A collection between phases keeps one phase's garbage out of the next one's time.
function collector(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function timed<T>(gc: () => void, fn: () => T): [T, number] {
  gc();
  const t0 = performance.now();
  const out = fn();
  return [out, performance.now() - t0];
}

/** Deterministic pseudo-random bytes (xorshift32): content addresses without hashing in setup. */
function pseudoRandom(bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  const words = new Uint32Array(out.buffer);
  let x = 0x9e3779b9;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    words[i] = x;
  }
  return out;
}

function anchor(inputs: Uint8Array, hashes: number): number {
  const count = inputs.length / 64;
  let acc = 0;
  for (let i = 0; i < hashes; i++) acc ^= sha256(inputs.subarray((i % count) * 64, (i % count) * 64 + 64))[0]!;
  return acc;
}

function proofsOf(tree: { inclusionProof(i: number): Uint8Array[] }, n: number): number {
  let elements = 0;
  for (let i = 0; i < n; i++) elements += tree.inclusionProof(i).length;
  return elements;
}

/** Expected total proof length: every level below the root contributes one sibling per leaf that has one. */
function expectedElements(n: number): number {
  let total = 0;
  for (let w = n, span = 1; w > 1; w = Math.ceil(w / 2), span *= 2) {
    // Leaves under the lone last node of an odd level get no element at that level.
    total += w % 2 === 1 ? n - (n - (w - 1) * span) : n;
  }
  return total;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export async function benchTrees(leaves = 1_000_000): Promise<TreeBenchFigures> {
  if (!Number.isSafeInteger(leaves) || leaves < 2) throw new RangeError(`leaves must be an integer ≥ 2, got ${leaves}`);
  const gc = collector();
  // 2n distinct inputs would be 128 MB at 10^6; 2^16 of them (4 MB) already defeat the CPU caches.
  const anchorInputs = pseudoRandom(Math.min(2 * leaves, 1 << 16) * 64);
  const content = pseudoRandom(leaves * 32);
  // Warm-up: every timed path runs once on a small tree first, so no phase pays for compilation.
  const warm = Array.from({ length: 4099 }, (_, i) =>
    leafHash(content.subarray((i % leaves) * 32, (i % leaves) * 32 + 32)),
  );
  anchor(anchorInputs, 8198);
  proofsOf(new MerkleTree(warm), warm.length);
  proofsOf(new DupTree(warm), warm.length);
  const j0 = machineJiffies();
  const c0 = process.cpuUsage();
  const w0 = performance.now();

  const [, anchor1] = timed(gc, () => anchor(anchorInputs, 2 * leaves));
  let [leafHashes, leafHashMs] = timed(gc, () => {
    const out = new Array<Buffer>(leaves);
    for (let i = 0; i < leaves; i++) out[i] = leafHash(content.subarray(i * 32, i * 32 + 32));
    return out;
  });
  const [log, logBuildMs] = timed(gc, () => {
    const t = new MerkleTree(leafHashes);
    t.root();
    return t;
  });
  const [dup, dupBuildMs] = timed(gc, () => {
    const t = new DupTree(leafHashes);
    t.root();
    return t;
  });
  // The trees hold their own copies; the service keeps the trees, not a million leaf Buffers.
  const sample = [0, 1, leaves >> 1, leaves - 2, leaves - 1].map((i) => ({ i, leaf: Buffer.from(leafHashes[i]!) }));
  leafHashes = [];
  const [logElements, logProofsMs] = timed(gc, () => proofsOf(log, leaves));
  const [dupElements, dupProofsMs] = timed(gc, () => proofsOf(dup, leaves));
  const [, anchor2] = timed(gc, () => anchor(anchorInputs, 2 * leaves));

  const wallMs = performance.now() - w0;
  const busy = machineBusy(j0, machineJiffies());
  const own = process.cpuUsage(c0);
  const otherCpu = busy === undefined ? undefined : Math.max(0, busy - ((own.user + own.system) / 1000 / wallMs) * 100);

  // An invalid run must not report a figure: every proof counted, and samples verify.
  const want = expectedElements(leaves);
  if (logElements !== want || dupElements !== want)
    throw new Error(`proof elements ${logElements}/${dupElements}, expected ${want}`);
  for (const { i, leaf } of sample) {
    if (!verifyInclusion(leaf, i, leaves, log.inclusionProof(i), log.root()).ok)
      throw new Error(`log proof ${i} does not verify`);
    if (!verifyDupInclusion(leaf, i, leaves, dup.inclusionProof(i), dup.root()).ok)
      throw new Error(`root v1 proof ${i} does not verify`);
  }

  const anchorMs = (anchor1 + anchor2) / 2;
  const shape = (buildMs: number, proofsMs: number, root: Uint8Array, proofElements: number): TreeShapeFigures => ({
    buildMs,
    proofsMs,
    totalMs: leafHashMs + buildMs + proofsMs,
    ratio: (leafHashMs + buildMs + proofsMs) / anchorMs,
    rootRatio: (leafHashMs + buildMs) / anchorMs,
    rootHex: hex(root),
    proofElements,
  });
  return {
    leaves,
    anchorMs,
    anchorRunsMs: [anchor1, anchor2],
    leafHashMs,
    log: shape(logBuildMs, logProofsMs, log.root(), logElements),
    rootV1: shape(dupBuildMs, dupProofsMs, dup.root(), dupElements),
    otherCpu,
    node: `${process.version} ${process.arch}, OpenSSL ${process.versions.openssl}`,
  };
}

/** The figures as a Markdown section for docs/performance.md. */
export function treeSection(f: TreeBenchFigures): string {
  const goal = (r: number) => (r <= 2 ? 'PASS' : 'BELOW GOAL');
  const row = (name: string, x: TreeShapeFigures) =>
    `| ${name} | ${Math.round(x.buildMs)} ms | ${Math.round(x.proofsMs)} ms | ${x.rootRatio.toFixed(2)}× | **${x.ratio.toFixed(2)}×** | ≤ 2×: ${goal(x.ratio)} |`;
  return [
    `${f.leaves.toLocaleString('en-US')} leaves; anchor: ${(2 * f.leaves).toLocaleString('en-US')} raw SHA-256 of 64 bytes = ${Math.round(f.anchorMs)} ms (mean of a run before and after); leaf hashes ${Math.round(f.leafHashMs)} ms.`,
    '',
    '| Tree | Build + root | Every inclusion proof | Root ÷ anchor | Root + all proofs ÷ anchor | Goal |',
    '|---|---:|---:|---:|---:|---|',
    row('transparency log (RFC 6962)', f.log),
    row('public root v1 (odd node duplicated)', f.rootV1),
    '',
    `Other CPU during the run: ${f.otherCpu === undefined ? 'n/a' : `${f.otherCpu.toFixed(0)} % of one core`}.`,
  ].join('\n');
}

function print(f: TreeBenchFigures): void {
  const ms = (x: number) => `${Math.round(x).toLocaleString('en-US')} ms`.padStart(10);
  const goal = (r: number) => (r <= 2 ? 'PASS' : 'BELOW GOAL');
  const out = [
    `Merkle trees over ${f.leaves.toLocaleString('en-US')} leaves (${f.node})`,
    `  anchor: ${(2 * f.leaves).toLocaleString('en-US')} × SHA-256(64 B)  ${ms(f.anchorMs)}  (runs ${f.anchorRunsMs.map((x) => Math.round(x)).join(' / ')} ms)`,
    `  leaf hashes (n × SHA-256(0x00 ‖ 32 B))   ${ms(f.leafHashMs)}`,
  ];
  for (const [name, s] of [
    ['log (RFC 6962 MerkleTree)', f.log],
    ['root v1 (DupTree)', f.rootV1],
  ] as const) {
    out.push(
      `  ${name}: build + root ${ms(s.buildMs).trim()}, all ${f.leaves.toLocaleString('en-US')} proofs ${ms(s.proofsMs).trim()} (${s.proofElements.toLocaleString('en-US')} hashes)`,
      `    root alone ${s.rootRatio.toFixed(2)}× anchor; root + every proof ${ms(s.totalMs).trim()} = ${s.ratio.toFixed(2)}× anchor (goal ≤ 2×: ${goal(s.ratio)}); root ${s.rootHex.slice(0, 16)}…`,
    );
  }
  out.push(
    `  other CPU during the run: ${f.otherCpu === undefined ? 'n/a' : `${f.otherCpu.toFixed(0)} % of one core`}`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const n = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  print(await benchTrees(n));
}
