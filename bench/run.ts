/**
 * `npm run bench`: the performance measurements of docs/performance.md, printed as tables
 * and written into that document.
 *
 *   1. Board throughput: GET /api/gspc from the real app against a bare node:http anchor
 *      (throughput.ts); goal app/anchor ≥ 0.85.
 *   2. Derivation at scale: readCorpus + deriveRelease over 1,000,000 per-item rows
 *      (derivation.ts); goal under 10 s, also given as a ratio of a JSON.parse anchor.
 *   3. Signed cards: sealing and verifying against raw node:crypto loops (evidence.ts).
 *   4. Public root and transparency log against raw hashing (tree-bench.ts).
 *   5. Metered products (payments.ts): the 402 challenge's throughput as a ratio of
 *      GET /api/gspc on the same app (goal ≥ 0.5), and the latency a paid request adds on the
 *      local rail over the facilitator's own time (goal: added p50 ≤ 5 ms, p99 ≤ 10 ms).
 *   6. Capability fabric (fabric.ts): GET /api/capability-fabric while one probe target hangs,
 *      against the same with every target fast, alternating in the same run (goal: unaffected,
 *      req/s ratio ≥ 0.9).
 *   7. MCP (mcp.ts): POST /mcp `tools/call gspc_board` in both protocol eras as a ratio of
 *      GET /api/gspc on the same app (no goal: the figure is reported).
 *   8. In-browser verification (browser-verify.ts): the /gspc-verify page checking a 10,000-card
 *      bundle in headless Chromium, in cards/s, as a ratio of `gspc verify` on the same bundle
 *      in the same run (no goal: the figure is reported; needs `npm run build` and Chromium).
 *   9. Import (import.ts): `gspc import lm-eval` over 1,000,000 synthetic sample lines and
 *      `gspc import inspect` over a synthetic `.eval` log of 1,000,000 samples, in rows/s, each as a
 *      ratio of a JSON.parse of the same sample documents in the same run (goal ≥ 200,000 rows/s),
 *      with RSS at 100,000 and 1,000,000 rows.
 *
 *  13. Every pair of models (pairs.ts): /api/models for 100 models × 100,000 items (4,950 pairs)
 *      against popcounts over the same outcome bitsets (no goal: the figure is reported).
 *  14. Signing through a PKCS#11 token (token-signing.ts): Ed25519 on SoftHSM2 through pkcs11js
 *      against node:crypto in the same run (no goal; skipped with the reason without SoftHSM2).
 *  15. One abusive client (stall.ts, issue 38): GET /api/gspc every 20 ms, alone and while one client
 *      sends 1,000-id POST /api/verify at the verify class's full rate (goal under the abuse: p50 < 20 ms,
 *      p99 < 100 ms); BENCH_STALL_SECONDS per phase (default 20).
 *  16. Axis pages and agent answers at 100, 200 and 1,000 models (axis-page.ts, issue 39): the axis
 *      page's HTML bytes and its drawing time in headless Chromium, the /api/models document's
 *      first read, and the agent answers' bytes (goal at 1,000 models: page ≤ 1 MB, drawn < 2 s,
 *      every answer ≤ 64 kB); BENCH_AXIS_ITEMS items (default 400).
 *  17. Slices at scale (slices.ts, issue 41): 10 models × BENCH_SLICE_ITEMS items (default 100,000,
 *      1,000,000 rows) with 1,000 tags: every slice document and the list as gspc serve builds them,
 *      against a per-slice popcount anchor, the longest event-loop gap, bytes, memory and a read.
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
 * BENCH_PAYMENTS (paid requests timed on the local rail, default 300: a p99 of fewer than 100 is the maximum), BENCH_PAYMENTS_CPU_PROF
 * (a directory: the challenge-run servers of §5 write V8 CPU profiles there),
 * BENCH_IMPORT_ROWS (sample lines imported, default 1000000), BENCH_INSPECT_SAMPLES (samples of the
 * Inspect log imported, default 1000000),
 * BENCH_SPEED_ROUNDS and BENCH_SPEED_SECONDS (§12's rounds, default 8, and seconds per server per round,
 * default 3), BENCH_REPLICA_PAID (paid requests timed at 1 and at 3 replicas, default 200), BENCH_REPLICA_PAYMENTS
 * (payments sent to every replica at once to check exactly-once, default 1000),
 * BENCH_PAIR_ITEMS (items of §13's axis, default 100000),
 * BENCH_ONLY (comma-separated sections to run: throughput, derivation, evidence, trees,
 * payments, fabric, mcp, browser-verify, import, replicas, board-speed, pairs, token, stall, axis-pages, slices; default all; a partial run rewrites only its own subsections of the results),
 * BENCH_WRITE_DOCS=0 to leave docs/performance.md untouched.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildForBench, killAllChildren, type BenchChild } from './child.js';
import { measureDerivation } from './derivation.js';
import {
  BROWSER_VERIFY_TITLE,
  browserVerifySection,
  derivationSection,
  fabricSection,
  FABRIC_TITLE,
  machine,
  MCP_TITLE,
  mcpSection,
  PAYMENTS_TITLE,
  paymentsSection,
  resultsBlock,
  throughputSection,
  writeResults,
  writeSections,
} from './report.js';
import { measurePayments } from './payments.js';
import { measureThroughput, type LoadSettings } from './throughput.js';
import { evidenceSection, measureEvidence } from './evidence.js';
import { benchTrees, treeSection } from './tree-bench.js';
import { measureFabric } from './fabric.js';
import { measureMcp } from './mcp.js';
import { measureBrowserVerify } from './browser-verify.js';
import { IMPORT_TITLE, INSPECT_IMPORT_TITLE, importSection, measureImport, measureInspectImport } from './import.js';
import { measureReplicas, REPLICAS_TITLE, replicasSection } from './replicas.js';
import { BOARD_SPEED_TITLE, boardSpeedSection } from './board-speed-report.js';
import { measureBoardSpeed } from './board-speed.js';
import { measurePairs, MODELS_READ_PATH, modelsReadSection, PAIRS_TITLE, pairsSection } from './pairs.js';
import { measureSlices, SLICES_TITLE, slicesSection } from './slices.js';
import { measureTokenSigning, TOKEN_TITLE, tokenSection } from './token-signing.js';
import { measureStall, STALL_TITLE, stallSection } from './stall.js';
import { AXIS_PAGE_TITLE, axisPageSection, measureAxisPages } from './axis-page.js';

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

const SECTIONS = [
  'throughput',
  'derivation',
  'evidence',
  'trees',
  'payments',
  'fabric',
  'mcp',
  'browser-verify',
  'import',
  'replicas',
  'board-speed',
  'pairs',
  'token',
  'stall',
  'axis-pages',
  'slices',
] as const;
type Section = (typeof SECTIONS)[number];

/** BENCH_ONLY: the sections to run (all when unset). */
function onlySections(): Set<Section> {
  const raw = process.env.BENCH_ONLY?.trim();
  if (!raw) return new Set(SECTIONS);
  const names = raw
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  for (const n of names)
    if (!(SECTIONS as readonly string[]).includes(n))
      throw new Error(`BENCH_ONLY=${raw}: '${n}' is not a section (${SECTIONS.join(', ')})`);
  return new Set(names as Section[]);
}

async function main(tmp: string, children: BenchChild[]): Promise<number> {
  const load: LoadSettings = {
    seconds: setting('BENCH_SECONDS', 5, 120, false),
    warmupSeconds: setting('BENCH_WARMUP_SECONDS', 2, 60, false),
    connections: setting('BENCH_CONNECTIONS', 50, 1000),
    rounds: setting('BENCH_ROUNDS', 2, 10),
    extraRounds: process.env.BENCH_EXTRA_ROUNDS === '0' ? 0 : setting('BENCH_EXTRA_ROUNDS', 2, 10),
  };
  const items = setting('BENCH_ITEMS', 200_000, 2_000_000);
  const cardCount = setting('BENCH_CARDS', 100_000, 1_000_000);
  const leaves = setting('BENCH_LEAVES', 1_000_000, 4_000_000);
  const paidCount = setting('BENCH_PAYMENTS', 300, 2000);
  const importRows = setting('BENCH_IMPORT_ROWS', 1_000_000, 5_000_000);
  const inspectSamples = setting('BENCH_INSPECT_SAMPLES', 1_000_000, 2_000_000);
  const cpuProfDir = process.env.BENCH_PAYMENTS_CPU_PROF?.trim() || undefined;
  const only = onlySections();
  const writeDocs = process.env.BENCH_WRITE_DOCS !== '0';
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  log(
    `gspc-board bench, ${date}\n${machine()}${only.size < SECTIONS.length ? `\nBENCH_ONLY: ${[...only].join(', ')}` : ''}\n`,
  );

  // [title in the results, body], in section order; `invalid` collects what makes the run invalid.
  const sections: [string, string][] = [];
  const invalid: string[] = [];

  if (only.has('throughput')) {
    log('1. Board throughput (one server at a time, each in its own process; autocannon here)');
    const t = await measureThroughput(join(ROOT, 'demo', 'corpus'), tmp, load, children, log);
    sections.push(['Board throughput', throughputSection(t, load)]);
    invalid.push(...t.runs.flatMap((r) => r.problems.map((p) => `throughput round ${r.round} ${r.server}: ${p}`)));
    log('');
  }
  if (only.has('derivation')) {
    log('2. Derivation at scale (in a fresh child process)');
    const d = await measureDerivation(tmp, items, children, log);
    sections.push(['Derivation at scale', derivationSection(d)]);
    invalid.push(...d.problems.map((p) => `derivation: ${p}`));
  }
  if (only.has('evidence')) {
    log('3. Signed evidence: cards sealed and verified against raw node:crypto loops');
    const e = await measureEvidence(cardCount, log);
    sections.push(['Signed cards: publish and verify', evidenceSection(e)]);
    if (e.invalid > 0) invalid.push(`evidence: ${e.invalid} cards did not verify`);
  }
  if (only.has('trees')) {
    log('4. Root and log over 1,000,000 leaves against raw hashing');
    sections.push(['Public root and transparency log', treeSection(await benchTrees(leaves))]);
  }
  if (only.has('payments')) {
    log('5. Metered products: 402 challenges against the board, and paid requests on the local rail');
    const p = await measurePayments(tmp, load, paidCount, children, log, cpuProfDir);
    sections.push([PAYMENTS_TITLE, paymentsSection(p, load)]);
    invalid.push(
      ...p.challenge.runs.flatMap((r) => r.problems.map((x) => `payments round ${r.round} ${r.side}: ${x}`)),
    );
    if (!('skipped' in p.paid)) invalid.push(...p.paid.problems.map((x) => `paid requests: ${x}`));
  }

  if (only.has('fabric')) {
    log('6. Capability fabric: the document while a probe target hangs, against all targets fast');
    const f = await measureFabric(join(ROOT, 'demo', 'corpus'), tmp, load, log);
    sections.push([FABRIC_TITLE, fabricSection(f, load)]);
    invalid.push(...f.problems.map((p) => `fabric: ${p}`));
  }

  if (only.has('mcp')) {
    log('7. MCP: tools/call gspc_board (both protocol eras) against GET /api/gspc on the same app');
    const m = await measureMcp(tmp, load, children, log);
    sections.push([MCP_TITLE, mcpSection(m, load)]);
    invalid.push(...m.runs.flatMap((r) => r.problems.map((x) => `mcp round ${r.round} ${r.side}: ${x}`)));
  }

  if (only.has('browser-verify')) {
    log(
      '8. In-browser verification: /gspc-verify checking a 10,000-card bundle in headless Chromium against gspc verify',
    );
    const v = await measureBrowserVerify(tmp, log);
    sections.push([BROWSER_VERIFY_TITLE, browserVerifySection(v)]);
    if (!('skipped' in v)) invalid.push(...v.problems.map((p) => `browser-verify: ${p}`));
  }

  if (only.has('import')) {
    log('9. Import: gspc import lm-eval and inspect over synthetic runs against a JSON.parse of every sample');
    const i = await measureImport(tmp, importRows, children, log);
    sections.push([IMPORT_TITLE, importSection(i)]);
    invalid.push(...i.problems.map((p) => `import: ${p}`));
    const inspect = await measureInspectImport(tmp, inspectSamples, children, log);
    sections.push([INSPECT_IMPORT_TITLE, importSection(inspect)]);
    invalid.push(...inspect.problems.map((p) => `import: ${p}`));
  }

  if (only.has('replicas')) {
    log(
      '11. Replicas: nginx over 3 replicas against the static mirror; paid requests at 1 and 3 replicas; exactly once at scale',
    );
    const r = await measureReplicas(
      tmp,
      {
        ...load,
        paid: setting('BENCH_REPLICA_PAID', 200, 2000),
        exactlyOnce: setting('BENCH_REPLICA_PAYMENTS', 1000, 10_000),
      },
      log,
    );
    sections.push([REPLICAS_TITLE, replicasSection(r)]);
    invalid.push(...r.board.flatMap((b) => b.problems.map((p) => `replicas ${b.target} round ${b.round}: ${p}`)));
    invalid.push(...r.paid.flatMap((p) => p.problems.map((x) => `replicas paid ${p.label}: ${x}`)));
    invalid.push(...(r.exactlyOnce?.problems ?? []).map((p) => `replicas exactly once: ${p}`));
  }

  if (only.has('board-speed')) {
    log('12. Board speed: the app against bare node:http and nginx, wrk and each server pinned to a core of its own');
    const speed = {
      ...load,
      seconds: setting('BENCH_SPEED_SECONDS', 3, 60, false),
      rounds: setting('BENCH_SPEED_ROUNDS', 8, 50),
    };
    const b = await measureBoardSpeed(join(ROOT, 'demo', 'corpus'), tmp, speed, children, log);
    sections.push([BOARD_SPEED_TITLE, boardSpeedSection(b)]);
    invalid.push(
      ...b.runs.flatMap((r) => r.problems.map((p) => `board-speed ${r.server} round ${r.round}: ${p}`)),
      ...b.pairs.flatMap((r) => r.problems.map((p) => `board-speed pair ${r.server} round ${r.round}: ${p}`)),
    );
  }

  if (only.has('pairs')) {
    log('13. Every pair of models: /api/models for 100 models x 100,000 items against popcounts over the same bitsets');
    const pairs = measurePairs(100, setting('BENCH_PAIR_ITEMS', 100_000, 1_000_000), log);
    log('  the served read: GET /api/models?axis=safety against the bare node:http anchor');
    const readTmp = join(tmp, 'models-read');
    mkdirSync(readTmp);
    const read = await measureThroughput(join(ROOT, 'demo', 'corpus'), readTmp, load, children, log, MODELS_READ_PATH);
    invalid.push(...read.runs.flatMap((r) => r.problems.map((p) => `models read round ${r.round} ${r.server}: ${p}`)));
    sections.push([PAIRS_TITLE, `${pairsSection(pairs)}\n\n${modelsReadSection(read, load)}`]);
  }

  if (only.has('token')) {
    log('14. Signing through a PKCS#11 token (SoftHSM2) against node:crypto');
    sections.push([TOKEN_TITLE, tokenSection(measureTokenSigning(tmp, 2_000, 3, log))]);
  }

  if (only.has('stall')) {
    log('15. One abusive client: GET /api/gspc while one client verifies 1,000 ids at the full verify rate');
    sections.push([STALL_TITLE, stallSection(await measureStall(tmp, setting('BENCH_STALL_SECONDS', 20, 300), log))]);
  }

  if (only.has('slices')) {
    log('17. Slices at scale: 1,000,000 rows, 1,000 tags, every slice document and the list');
    const f = await measureSlices(10, setting('BENCH_SLICE_ITEMS', 100_000, 1_000_000), 1_000, log);
    sections.push([SLICES_TITLE, slicesSection(f)]);
  }

  if (only.has('axis-pages')) {
    log('16. Axis pages and agent answers at 100, 200 and 1,000 models');
    const axisTmp = join(tmp, 'axis-pages');
    mkdirSync(axisTmp);
    const r = await measureAxisPages(axisTmp, setting('BENCH_AXIS_ITEMS', 400, 100_000), log);
    sections.push([AXIS_PAGE_TITLE, axisPageSection(r)]);
  }

  for (const [title, body] of sections) log(`\n## ${title}\n\n${body}`);

  // Warnings repeat once per child and differ only in the pid prefix, which is dropped.
  const notes = [
    ...new Set(
      children.flatMap((c) =>
        c.stderr
          .split('\n')
          .map((l) => l.replace(/^\(node:\d+\) /, '').trim())
          .filter((l) => l !== ''),
      ),
    ),
  ];
  if (notes.length > 0)
    log(`\nChild processes wrote to stderr (shown once each):\n${notes.map((n) => `  ${n}`).join('\n')}`);

  if (invalid.length > 0) {
    log(`\nINVALID MEASUREMENT (docs not updated):\n${invalid.map((p) => `  ${p}`).join('\n')}`);
    return 1;
  }
  if (writeDocs) {
    const doc = join(ROOT, 'docs', 'performance.md');
    if (only.size === SECTIONS.length) writeResults(doc, resultsBlock(date, sections));
    else writeSections(doc, date, `BENCH_ONLY=${[...only].join(',')}`, sections);
    log(
      `\nFigures written to docs/performance.md${only.size < SECTIONS.length ? ` (only the subsections of ${[...only].join(', ')})` : ''}`,
    );
  }
  return 0;
}

buildForBench();
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
