/**
 * A large corpus for the derivation measurement, in the format demo/generate.ts writes
 * (docs/formats.md): board.json, one model-comparison axis file, and its per-item JSONL with
 * `items × MODELS.length` rows (1,000,000 by default).
 *
 * Deterministic (seeded mulberry32, no clock) so every run derives the same file, and
 * streamed: rows go to disk in batches with writeSync, so the generator holds one batch in
 * memory, not the ~70 MB file.
 */
import { prng } from '../demo/generate.js';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** A slug from the specification, so the corpus stays valid if slugs are ever checked. */
export const SCALE_AXIS = 'governance';
const LABELS = ['A', 'B', 'C', 'D'];
const OWN = 'svc/sentinel-scale';

/** Accuracy and unparsed (null label) rate per model; the first three are the declared base models. */
const MODELS: { model: string; accuracy: number; unparsed: number }[] = [
  { model: 'scale/atlas-70b', accuracy: 0.8, unparsed: 0.01 },
  { model: 'scale/borealis-34b', accuracy: 0.78, unparsed: 0.02 },
  { model: 'scale/cirrus-8b', accuracy: 0.7, unparsed: 0.03 },
  { model: 'scale/dune-8b-ft', accuracy: 0.66, unparsed: 0.05 },
  { model: OWN, accuracy: 0.79, unparsed: 0.005 },
];
export const MODEL_COUNT = MODELS.length;

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

export interface ScaleCorpus {
  dir: string;
  rowsPath: string;
  rows: number;
  bytes: number;
}

export function writeScaleCorpus(dir: string, items: number): ScaleCorpus {
  mkdirSync(join(dir, 'axes'), { recursive: true });
  mkdirSync(join(dir, 'peritem'), { recursive: true });
  writeFileSync(
    join(dir, 'board.json'),
    json({
      schema: 'svc.gspc-corpus/1',
      issuer: 'SYNTHETIC BENCH CORPUS (bench/scale-corpus.ts); no model was measured.',
      doi: '10.5281/zenodo.0000000 (bench identifier; no such record exists)',
      as_of: '2026-11-01T00:00:00Z',
      measured_on: {
        model: 'Generated per-item rows',
        date: 'Synthetic bench run',
        grading: 'Exact-label match against the gold label',
      },
      own_models: [OWN],
      axes: [SCALE_AXIS],
      limitations: ['SYNTHETIC: generated for the derivation benchmark.'],
    }),
  );
  writeFileSync(
    join(dir, 'axes', `${SCALE_AXIS}.json`),
    json({
      axis: SCALE_AXIS,
      family: 'behavioural',
      kind: 'model-comparison',
      status: 'MEASURED',
      title: 'Derivation benchmark axis',
      bench: 'bench-scale-mcq',
      task: 'Choose the correct option',
      dataset: `bench/scale-${items}`,
      n: items,
      labels: LABELS,
      base_models: MODELS.slice(0, 3).map((m) => m.model),
      fleet: ['fleet_mean', 'macro_f1'],
    }),
  );

  const rowsPath = join(dir, 'peritem', `${SCALE_AXIS}.jsonl`);
  const fd = openSync(rowsPath, 'w');
  const rnd = prng(0x5ca1e);
  const width = String(items).length;
  let bytes = 0;
  let batch: string[] = [];
  const flush = () => {
    const buf = Buffer.from(batch.join(''));
    writeSync(fd, buf);
    bytes += buf.length;
    batch = [];
  };
  try {
    for (let i = 0; i < items; i++) {
      const item = `${SCALE_AXIS}/${String(i + 1).padStart(width, '0')}`;
      const gold = LABELS[Math.floor(rnd() * LABELS.length)]!;
      for (const m of MODELS) {
        let label: string | null;
        if (rnd() < m.unparsed) label = null;
        else if (rnd() < m.accuracy) label = gold;
        else {
          const others = LABELS.filter((l) => l !== gold);
          label = others[Math.floor(rnd() * others.length)]!;
        }
        // Same bytes JSON.stringify({ item, model, gold, label }) gives (all values are plain
        // ASCII without quotes or backslashes); a template is several times faster at 1M rows.
        batch.push(
          `{"item":"${item}","model":"${m.model}","gold":"${gold}","label":${label === null ? 'null' : `"${label}"`}}\n`,
        );
      }
      if (batch.length >= 10_000) flush();
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return { dir, rowsPath, rows: items * MODELS.length, bytes };
}
