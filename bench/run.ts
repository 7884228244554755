/**
 * `npm run bench`: the two performance measurements of docs/performance.md, printed as tables
 * and written into that document.
 *
 *   1. Board throughput: GET /api/gspc from the real app against a bare node:http anchor
 *      (throughput.ts); goal app/anchor ≥ 0.85.
 *   2. Derivation at scale: readCorpus + deriveRelease over 1,000,000 per-item rows
 *      (derivation.ts); goal under 10 s, also given as a ratio of a JSON.parse anchor.
 *
 * Goals are reported (PASS / BELOW GOAL), never enforced: timings vary by machine. The process
 * fails only when a measurement is invalid (a wrong response, a row count that does not match).
 * Everything runs on 127.0.0.1, in one temp dir that is removed at the end, and every child
 * process is stopped by its own handle.
 *
 * Settings (environment): BENCH_SECONDS (measured seconds per run, default 5),
 * BENCH_WARMUP_SECONDS (default 2), BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (anchor+app
 * pairs, default 2), BENCH_EXTRA_ROUNDS (rounds allowed in addition to replace rounds disturbed
 * by other load on the machine, default 2), BENCH_ITEMS (scale corpus items, × 5 models; default 200000),
 * BENCH_CARDS (cards sealed and verified, default 100000), BENCH_LEAVES (tree leaves, default 1000000),
 * BENCH_WRITE_DOCS=0 to leave docs/performance.md untouched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { killAllChildren, type BenchChild } from './child.js';
import { measureDerivation } from './derivation.js';
import { derivationSection, machine, resultsBlock, throughputSection, writeResults } from './report.js';
import { measureThroughput, type LoadSettings } from './throughput.js';
import { evidenceSection, measureEvidence } from './evidence.js';
import { benchTrees, treeSection } from './tree-bench.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function setting(name: string, fallback: number, max: number, integer = true): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = Number(raw);
  if (!Number.isFinite(v) || v <= 0 || v > max || (integer && !Number.isInteger(v))) {
    throw new Error(`${name}=${raw}: expected a ${integer ? 'whole ' : ''}number above 0 and at most ${max}`);
  }
  return v;
}

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(tmp: string, children: BenchChild[]): Promise<number> {
  const load: LoadSettings = {
    seconds: setting('BENCH_SECONDS', 5, 120, false),
    warmupSeconds: setting('BENCH_WARMUP_SECONDS', 2, 60, false),
    connections: setting('BENCH_CONNECTIONS', 50, 1000),
    rounds: setting('BENCH_ROUNDS', 2, 10),
    extraRounds: process.env.BENCH_EXTRA_ROUNDS === '0' ? 0 : setting('BENCH_EXTRA_ROUNDS', 2, 10),
  };
  const items = setting('BENCH_ITEMS', 200_000, 2_000_000);
  const writeDocs = process.env.BENCH_WRITE_DOCS !== '0';
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  log(`gspc-board bench, ${date}\n${machine()}\n`);

  log('1. Board throughput (one server at a time, each in its own process; autocannon here)');
  const t = await measureThroughput(join(ROOT, 'demo', 'corpus'), tmp, load, children, log);
  log('');
  log('2. Derivation at scale (in a fresh child process)');
  const d = await measureDerivation(tmp, items, children, log);

  log('3. Signed evidence: cards sealed and verified against raw node:crypto loops');
  const cardCount = setting('BENCH_CARDS', 100_000, 1_000_000);
  const e = await measureEvidence(cardCount, log);
  log('4. Root and log over 1,000,000 leaves against raw hashing');
  const trees = await benchTrees(setting('BENCH_LEAVES', 1_000_000, 4_000_000));
  const extra: [string, string][] = [['Signed cards: publish and verify', evidenceSection(e)], ['Public root and transparency log', treeSection(trees)]];

  log('\n## Board throughput\n');
  log(throughputSection(t, load));
  log('\n## Derivation at scale\n');
  log(derivationSection(d));
  for (const [title, body] of extra) log(`\n## ${title}\n\n${body}`);

  const invalid = [
    ...t.runs.flatMap((r) => r.problems.map((p) => `throughput round ${r.round} ${r.server}: ${p}`)),
    ...d.problems.map((p) => `derivation: ${p}`),
    ...(e.invalid > 0 ? [`evidence: ${e.invalid} cards did not verify`] : []),
  ];
  // Warnings repeat once per child and differ only in the pid prefix, which is dropped.
  const notes = [...new Set(children.flatMap((c) => c.stderr.split('\n').map((l) => l.replace(/^\(node:\d+\) /, '').trim()).filter((l) => l !== '')))];
  if (notes.length > 0) log(`\nChild processes wrote to stderr (shown once each):\n${notes.map((n) => `  ${n}`).join('\n')}`);

  if (invalid.length > 0) {
    log(`\nINVALID MEASUREMENT (docs not updated):\n${invalid.map((p) => `  ${p}`).join('\n')}`);
    return 1;
  }
  if (writeDocs) {
    writeResults(join(ROOT, 'docs', 'performance.md'), resultsBlock(date, t, load, d, extra));
    log('\nFigures written to docs/performance.md');
  }
  return 0;
}

const tmp = mkdtempSync(join(tmpdir(), 'gspc-bench-'));
const children: BenchChild[] = [];
const cleanup = () => {
  killAllChildren();
  rmSync(tmp, { recursive: true, force: true });
};
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    cleanup();
    process.exit(130);
  });
}
try {
  process.exitCode = await main(tmp, children);
} catch (e) {
  process.stderr.write(`bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
} finally {
  cleanup();
}
