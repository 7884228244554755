/**
 * A corpus of many small model-comparison axes (issue 39: a board of 150 axes made agent answers
 * of 150-180 kB): `axes` axes of three models and 30 items each, a long title on each so the rows
 * weigh what real ones do. Deterministic.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function writeManyAxesCorpus(dir: string, axes: number): string[] {
  mkdirSync(join(dir, 'axes'), { recursive: true });
  mkdirSync(join(dir, 'peritem'), { recursive: true });
  const slugs = Array.from({ length: axes }, (_, i) => `axis-${String(i + 1).padStart(3, '0')}`);
  writeFileSync(
    join(dir, 'board.json'),
    JSON.stringify({
      schema: 'svc.gspc-corpus/1',
      issuer: 'SYNTHETIC TEST CORPUS (test/helpers/many-axes-corpus.ts)',
      doi: '10.5281/zenodo.0000000 (test identifier)',
      as_of: '2026-11-01T00:00:00Z',
      measured_on: { model: 'Generated rows', date: 'Synthetic', grading: 'Exact-label match' },
      own_models: [],
      axes: slugs,
      limitations: ['SYNTHETIC'],
    }),
  );
  const models = ['lab/alpha', 'lab/beta', 'lab/gamma'];
  slugs.forEach((axis, a) => {
    writeFileSync(
      join(dir, 'axes', `${axis}.json`),
      JSON.stringify({
        axis,
        family: 'behavioural',
        kind: 'model-comparison',
        status: 'MEASURED',
        title: `Synthetic axis ${a + 1}: a title as long as a real benchmark's description of its task`,
        bench: 'synthetic',
        task: 'Choose the correct option',
        dataset: `synthetic/${axis}`,
        n: 30,
        labels: ['A', 'B'],
        base_models: ['lab/gamma'],
      }),
    );
    const rows: string[] = [];
    for (let i = 0; i < 30; i++)
      models.forEach((model, m) => {
        const right = (i * 7 + m * 3 + a) % 10 < 9 - 3 * m;
        rows.push(JSON.stringify({ item: `${axis}/${i}`, model, gold: 'A', label: right ? 'A' : 'B' }));
      });
    writeFileSync(join(dir, 'peritem', `${axis}.jsonl`), `${rows.join('\n')}\n`);
  });
  return slugs;
}
