/**
 * A corpus with one model-comparison axis of many models (issue 39): `models` public models of
 * evenly spread skill on `items` items, so neighbours in rank tie and distant ones separate, and
 * the tie groups run past the 26 single letters at a few hundred models. For the axis page and
 * agent-answer bounds (bench/axis-page.ts, test/pages/axis-page-size.test.ts,
 * test/surfaces/answer-bounds.test.ts). Deterministic (seeded), no clock.
 *
 * With `positiveLabel`, the axis also names a positive label, so the board's row carries a
 * per-model classification count for every model (as the demo's jail axis does).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../demo/generate.js';

export const MANY_AXIS = 'many-models';
const LABELS = ['A', 'B', 'C', 'D'];
export const MANY_OWN = 'svc/sentinel-many';

export interface ManyModelsOptions {
  /** Public models (the own model comes in addition). */
  models: number;
  items: number;
  positiveLabel?: boolean;
  seed?: number;
}

/** `bench/model-0001` …: the best skill first. */
export const manyModelName = (i: number, models: number) =>
  `bench/model-${String(i + 1).padStart(Math.max(4, String(models).length), '0')}`;

export function writeManyModelsCorpus(dir: string, o: ManyModelsOptions): { rows: number } {
  mkdirSync(join(dir, 'axes'), { recursive: true });
  mkdirSync(join(dir, 'peritem'), { recursive: true });
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  const names = Array.from({ length: o.models }, (_, i) => manyModelName(i, o.models));
  writeFileSync(
    join(dir, 'board.json'),
    json({
      schema: 'svc.gspc-corpus/1',
      issuer: 'SYNTHETIC BENCH CORPUS (bench/many-models.ts); no model was measured.',
      doi: '10.5281/zenodo.0000000 (bench identifier; no such record exists)',
      as_of: '2026-11-01T00:00:00Z',
      measured_on: {
        model: 'Generated per-item rows',
        date: 'Synthetic bench run',
        grading: 'Exact-label match against the gold label',
      },
      own_models: [MANY_OWN],
      axes: [MANY_AXIS],
      limitations: ['SYNTHETIC: generated for the many-models benchmark.'],
    }),
  );
  writeFileSync(
    join(dir, 'axes', `${MANY_AXIS}.json`),
    json({
      axis: MANY_AXIS,
      family: 'behavioural',
      kind: 'model-comparison',
      status: 'MEASURED',
      title: `Many-models axis (${o.models} models)`,
      bench: 'bench-many-mcq',
      task: 'Choose the correct option',
      dataset: `bench/many-${o.models}x${o.items}`,
      n: o.items,
      labels: LABELS,
      base_models: names.slice(0, 3),
      fleet: ['fleet_mean'],
      ...(o.positiveLabel && { positive_label: 'A' }),
    }),
  );
  const rnd = prng(o.seed ?? 0x39);
  const width = String(o.items).length;
  const skill = [...names.map((_, i) => 0.95 - (0.5 * i) / Math.max(1, o.models - 1)), 0.8];
  const all = [...names, MANY_OWN];
  const rows: string[] = [];
  for (let i = 0; i < o.items; i++) {
    const item = `${MANY_AXIS}/${String(i + 1).padStart(width, '0')}`;
    const gold = LABELS[Math.floor(rnd() * LABELS.length)]!;
    all.forEach((model, m) => {
      const label =
        rnd() < 0.02
          ? null
          : rnd() < skill[m]!
            ? gold
            : LABELS.filter((l) => l !== gold)[Math.floor(rnd() * (LABELS.length - 1))]!;
      rows.push(
        `{"item":"${item}","model":"${model}","gold":"${gold}","label":${label === null ? 'null' : `"${label}"`}}`,
      );
    });
  }
  writeFileSync(join(dir, 'peritem', `${MANY_AXIS}.jsonl`), `${rows.join('\n')}\n`);
  return { rows: rows.length };
}
