/**
 * Measurement 2, run in a fresh process (forked by derivation.ts with --expose-gc) so the
 * memory figures belong to the derivation alone:
 *
 *   derive-child.ts <corpusDir> <rowsFile>
 *
 * First readCorpus + deriveRelease (timed separately; memory sampled after each; peak RSS from
 * the kernel), then, with the corpus released and collected, the anchor: read the same JSONL
 * file and JSON.parse every line, the least work any reader of the format must do. The
 * derivation goes first so the peak RSS is not the anchor's. Results go back over IPC.
 */
import { readFileSync } from 'node:fs';
import { readCorpus, type Corpus } from '../src/corpus/read-corpus.js';
import { deriveRelease, type DerivedRelease } from '../src/release/derive.js';
import { machineBusy, machineJiffies } from './machine-load.js';
import { peakRssMB as peakRss } from './peak-rss.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const MB = 1024 * 1024;

function memory() {
  const m = process.memoryUsage();
  // `external` already includes `arrayBuffers` (every Buffer, so the file bytes the corpus keeps).
  return { rssMB: m.rss / MB, heapUsedMB: m.heapUsed / MB, externalMB: m.external / MB };
}

/** Line splitting as src/corpus/peritem-rows.ts does it (byte scan, per-line decode). */
function parseEveryLine(bytes: Buffer): { lines: number; unparsed: number } {
  let start = 0;
  let lines = 0;
  let unparsed = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    const row = JSON.parse(bytes.toString('utf8', start, end)) as { label: unknown };
    // Using each result keeps the work observable, so nothing can be optimised away.
    if (row.label === null) unparsed++;
    lines++;
    start = end + 1;
  }
  return { lines, unparsed };
}

/** CPU used by other processes during a window: machine busy minus this process, % of one core. */
function otherCpu(j0: ReturnType<typeof machineJiffies>, c0: NodeJS.CpuUsage, ms: number): number | undefined {
  const busy = machineBusy(j0, machineJiffies());
  if (busy === undefined) return undefined;
  const own = process.cpuUsage(c0);
  return Math.max(0, busy - ((own.user + own.system) / 1000 / ms) * 100);
}

function measure(corpusDir: string, rowsFile: string) {
  gc();
  const baseline = memory();
  const j0 = machineJiffies();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let corpus: Corpus | undefined = readCorpus(corpusDir);
  const t1 = performance.now();
  const afterRead = memory();
  let derived: DerivedRelease | undefined = deriveRelease(corpus);
  const t2 = performance.now();
  const afterDerive = memory();
  const deriveOtherCpu = otherCpu(j0, c0, t2 - t0);
  const peakRssMB = peakRss();
  const axis = derived.source.axes[0]?.row;
  const check = {
    rows: derived.source.peritem.rows,
    leader: axis?.leader ?? axis?.public_leader_state ?? null,
    separation: axis?.separation ?? null,
    p: axis?.separation_p ?? null,
  };
  corpus = undefined;
  derived = undefined;
  gc();

  const ja = machineJiffies();
  const ca = process.cpuUsage();
  const a0 = performance.now();
  const bytes = readFileSync(rowsFile);
  const a1 = performance.now();
  const parsed = parseEveryLine(bytes);
  const a2 = performance.now();
  const anchorOtherCpu = otherCpu(ja, ca, a2 - a0);
  return {
    readMs: t1 - t0,
    deriveMs: t2 - t1,
    totalMs: t2 - t0,
    anchorReadMs: a1 - a0,
    anchorParseMs: a2 - a1,
    anchorMs: a2 - a0,
    anchorLines: parsed.lines,
    anchorUnparsed: parsed.unparsed,
    baseline,
    afterRead,
    afterDerive,
    peakRssMB,
    check,
    deriveOtherCpu,
    anchorOtherCpu,
  };
}

export type DeriveFigures = ReturnType<typeof measure>;

// Exit once the result is on its way (or the parent is gone); the send callback runs after
// the message has been handed to the IPC channel, so disconnecting there loses nothing.
process.on('disconnect', () => process.exit(process.exitCode ?? 0));
const [corpusDir = '', rowsFile = ''] = process.argv.slice(2);
let message: object;
try {
  message = measure(corpusDir, rowsFile);
} catch (e) {
  message = { error: (e as Error).stack ?? String(e) };
  process.exitCode = 1;
}
process.send?.(message, undefined, {}, () => process.disconnect?.());
