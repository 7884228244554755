/**
 * A corpus of one model-comparison axis, `quiz`, written from scratch: board.json, axes/quiz.json
 * and peritem/quiz.jsonl from the rows given (already JSON lines, so a test may spell a row by
 * hand). The tests of the documents beside the board (model cards, cost, the item explorer) each
 * add what they test on top.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './tmp.js';

export interface QuizCorpus {
  /** JSONL lines of peritem/quiz.jsonl. */
  rows: readonly string[];
  issuer?: string;
  asOf?: string;
  own?: readonly string[];
  labels?: readonly string[];
}

export function writeQuizCorpus(o: QuizCorpus): string {
  const dir = join(tempDir(), 'corpus');
  mkdirSync(join(dir, 'axes'), { recursive: true });
  mkdirSync(join(dir, 'peritem'));
  const board = {
    schema: 'svc.gspc-corpus/1',
    issuer: o.issuer ?? 'Test issuer (registry 1)',
    doi: '10.0000/test',
    as_of: o.asOf ?? '2026-11-01T00:00:00Z',
    measured_on: { model: 'rows', date: 'November 2026', grading: 'exact label' },
    own_models: o.own ?? [],
    axes: ['quiz'],
    limitations: [],
  };
  writeFileSync(join(dir, 'board.json'), JSON.stringify(board));
  const axis = {
    axis: 'quiz',
    family: 'test',
    kind: 'model-comparison',
    status: 'MEASURED',
    bench: 'quiz',
    task: 'a quiz',
    dataset: 'quiz',
    labels: o.labels ?? ['A', 'B'],
  };
  writeFileSync(join(dir, 'axes', 'quiz.json'), JSON.stringify(axis));
  writeFileSync(join(dir, 'peritem', 'quiz.jsonl'), `${o.rows.join('\n')}\n`);
  return dir;
}
