/**
 * Contamination windows at scale (issue 41 item 3, docs/performance.md §18), standalone:
 * `node --import tsx bench/windows-steps.ts [models] [items]` (default 100 × 100,000). One axis,
 * every item dated (24 months in turn), each model a cutoff among 10 months; the `/api/models`
 * document is built first, then the windows document by its generator, one step at a time, as
 * the server's slices drive it. Prints the build times, the number of steps, the longest steps
 * (index and ms: the longest stretch a slice can hold the event loop, since a slice ends only
 * after a step) and the document's bytes. Seeded: every run builds the same corpus.
 */
import { ItemTable } from '../src/core/board/item-table.js';
import type { ModelComparisonAxis } from '../src/core/board/model.js';
import { modelsDocument } from '../src/core/board/models-document.js';
import { windowsDocumentSteps, type WindowsDocument } from '../src/core/board/windows-document.js';

const models = Number(process.argv[2] ?? 100);
const items = Number(process.argv[3] ?? 100_000);

let seed = 41;
const next = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 4294967296;
};
const months = Array.from(
  { length: 24 },
  (_, i) => `${2023 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
);
const table = new ItemTable();
let line = 0;
for (let i = 0; i < items; i++)
  for (let m = 0; m < models; m++) {
    const right = next() < 0.5 + (0.4 * m) / models;
    table.add(
      {
        item: `i${i}`,
        model: `m${String(m).padStart(4, '0')}`,
        gold: 'A',
        label: right ? 'A' : 'B',
        item_date: months[i % 24]!,
      },
      ++line,
    );
  }
const def = { axis: 'big', kind: 'model-comparison', status: 'MEASURED', labels: ['A', 'B'] } as ModelComparisonAxis;
let t0 = performance.now();
const full = modelsDocument(def, table, []);
const fullMs = performance.now() - t0;
const cards = [...table.columns.keys()].map((model, k) => ({ model, knowledge_cutoff: months[k % 10]! }));
t0 = performance.now();
const steps = windowsDocumentSteps(def, table, full, cards, null);
const times: number[] = [];
let doc: WindowsDocument | undefined;
while (doc === undefined) {
  const s = performance.now();
  const r = steps.next();
  times.push(performance.now() - s);
  if (r.done) doc = r.value;
}
const windowsMs = performance.now() - t0;
const longest = times
  .map((ms, i) => [i, Math.round(ms)] as const)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 5);
console.log(
  JSON.stringify({
    models,
    items,
    pairs: full.pairs.length,
    models_document_ms: Math.round(fullMs),
    windows_document_ms: Math.round(windowsMs),
    steps: times.length,
    longest_steps_ms: longest,
    bytes: Buffer.byteLength(JSON.stringify(doc)),
    m: doc.m,
  }),
);
