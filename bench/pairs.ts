/**
 * §13. Every pair of models (issue 29): `/api/models` for one axis of 100 models × 100,000 items
 * (4,950 pairs), against an anchor of popcounts over the same outcome bitsets measured in the
 * same run. The anchor is the least any all-pairs count must do: for each pair, AND the two
 * models' parsed bitsets and count the bits. The document does that four times over per pair
 * (paired, b, c, both) and then the exact McNemar test, Holm, Newcombe's interval, the power
 * figures and the letters. The anchor runs before and after the document, averaged, so that a
 * drift of the machine's load hits both. Reported, no goal (the issue asks for the figure).
 */
import { ItemTable } from '../src/core/board/item-table.js';
import type { ModelComparisonAxis } from '../src/core/board/model.js';
import { modelsDocument } from '../src/core/board/models-document.js';
import { PairCounter } from '../src/core/board/paired-bitsets.js';
import { throughputSection } from './report.js';
import type { LoadSettings, ThroughputFigures } from './throughput.js';

export interface PairsFigures {
  models: number;
  items: number;
  pairs: number;
  buildTableMs: number;
  anchorMs: number;
  anchorRunsMs: [number, number];
  /** The whole document: counts, tests, Holm, intervals, power, letters. */
  documentMs: number;
  /** PairCounter alone: the bitsets built and all pairs counted. */
  countsMs: number;
  stringifyMs: number;
  bytes: number;
  separated: number;
  ratio: number;
}

function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** 100 models of increasing skill, 2% unparsed, on one two-label menu; seeded, so every run is the same. */
function scaleTable(models: number, items: number): ItemTable {
  let seed = 29;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const table = new ItemTable();
  let line = 0;
  for (let i = 0; i < items; i++)
    for (let m = 0; m < models; m++) {
      const unparsed = next() < 0.02;
      const right = next() < 0.5 + m / (2.5 * models);
      table.add({ item: `i${i}`, model: `m${m}`, gold: 'A', label: unparsed ? null : right ? 'A' : 'B' }, ++line);
    }
  return table;
}

/** The anchor: for each pair, popcount(parsed_x AND parsed_y) over the same bitsets. */
function anchor(bitsets: Uint32Array[]): number {
  let total = 0;
  for (let x = 0; x < bitsets.length; x++)
    for (let y = x + 1; y < bitsets.length; y++) {
      const a = bitsets[x]!;
      const b = bitsets[y]!;
      for (let w = 0; w < a.length; w++) total += popcount(a[w]! & b[w]!);
    }
  return total;
}

export function measurePairs(models = 100, items = 100_000, log: (l: string) => void = () => {}): PairsFigures {
  const t0 = performance.now();
  const table = scaleTable(models, items);
  const buildTableMs = performance.now() - t0;
  const words = (items + 31) >>> 5;
  const bitsets = [...table.columns.values()].map((col) => {
    const b = new Uint32Array(words);
    for (let i = 0; i < items; i++) if (col.outcome[i] === 1 || col.outcome[i] === 2) b[i >>> 5]! |= 1 << (i & 31);
    return b;
  });
  const timeAnchor = () => {
    const s = performance.now();
    const total = anchor(bitsets);
    if (total <= 0) throw new Error('the anchor counted no paired item');
    return performance.now() - s;
  };
  const a1 = timeAnchor();
  const def = {
    axis: 'scale',
    family: 'bench',
    kind: 'model-comparison',
    status: 'MEASURED',
    bench: 'synthetic',
    task: 'synthetic',
    dataset: 'synthetic',
    labels: ['A', 'B'],
  } as unknown as ModelComparisonAxis;
  const d0 = performance.now();
  const doc = modelsDocument(def, table, []);
  const documentMs = performance.now() - d0;
  const s0 = performance.now();
  const text = JSON.stringify(doc);
  const stringifyMs = performance.now() - s0;
  const c0 = performance.now();
  const counter = new PairCounter(table);
  const names = [...table.columns.keys()];
  for (let x = 0; x < names.length; x++) for (let y = x + 1; y < names.length; y++) counter.count(names[x]!, names[y]!);
  const countsMs = performance.now() - c0;
  const a2 = timeAnchor();
  const pairs = (models * (models - 1)) / 2;
  if (doc.pairs.length !== pairs) throw new Error(`the document has ${doc.pairs.length} pairs, not ${pairs}`);
  const anchorMs = (a1 + a2) / 2;
  const f: PairsFigures = {
    models,
    items,
    pairs,
    buildTableMs,
    anchorMs,
    anchorRunsMs: [a1, a2],
    documentMs,
    countsMs,
    stringifyMs,
    bytes: Buffer.byteLength(text),
    separated: doc.pairs.filter((p) => p.state === 'SEPARATED').length,
    ratio: documentMs / anchorMs,
  };
  log(`  document ${documentMs.toFixed(0)} ms, anchor ${anchorMs.toFixed(0)} ms (${f.ratio.toFixed(2)} ×)`);
  return f;
}

export const PAIRS_TITLE = 'Every pair of models (/api/models)';

export function pairsSection(f: PairsFigures): string {
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  return [
    `One axis of ${f.models} models × ${f.items.toLocaleString('en')} items (2% unparsed): ${f.pairs.toLocaleString('en')} pairs, ${f.separated.toLocaleString('en')} SEPARATED after Holm.`,
    '',
    '| what | time | × anchor |',
    '|---|---|---|',
    `| anchor: popcount(parsed_x AND parsed_y) for every pair (mean of ${ms(f.anchorRunsMs[0])} and ${ms(f.anchorRunsMs[1])}) | ${ms(f.anchorMs)} | 1.00 |`,
    `| the pairs' 2×2 tables alone (PairCounter: bitsets built, every pair counted) | ${ms(f.countsMs)} | ${(f.countsMs / f.anchorMs).toFixed(2)} |`,
    `| the whole document (tables, exact McNemar, Holm, Newcombe, power, letters) | ${ms(f.documentMs)} | ${f.ratio.toFixed(2)} |`,
    `| JSON.stringify of it (${(f.bytes / 1e6).toFixed(2)} MB) | ${ms(f.stringifyMs)} | ${(f.stringifyMs / f.anchorMs).toFixed(2)} |`,
    '',
    `Building the item table from ${(f.models * f.items).toLocaleString('en')} rows took ${ms(f.buildTableMs)} (what a publish already does). The document is built once per release and axis: gspc serve builds every axis's in the background once listening and after each new release, one axis per turn of the event loop (decision S5), so only a reader who comes before that waits the document's time, and at this scale the requests queued behind one axis wait up to it too. What would make the figure wrong: a machine busy during one side only (the anchor brackets the document to catch drift), and real data with far fewer discordant pairs (the exact McNemar test costs O(min(b, c)) per pair).`,
  ].join('\n');
}

/** The served read measured like the board's (throughput.ts): the demo's safety axis. */
export const MODELS_READ_PATH = '/api/models?axis=safety';

export function modelsReadSection(t: ThroughputFigures, s: LoadSettings): string {
  return [
    `**The served read.** Once built, the document is prepared bytes served like the board: ${t.path} against the bare node:http anchor sending the same bytes, measured as section 1 measures the board (same protocol, same checks on every response); since decision S6 the fast path replays it, as it does the board. As in section 1, autocannon here nearly saturates its own core (the Client CPU column), so a ratio near or above 1 says only that the read costs no more than the anchor as far as this load generator can tell, not that it is faster; section 12's pinned wrk is the strict method, and it measures the board.`,
    '',
    throughputSection(t, s),
  ].join('\n');
}
