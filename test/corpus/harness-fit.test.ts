/**
 * Real harness output fits the per-item row format without loss of what the board needs.
 * The mapping here is a minimal hand-written one; `gspc import` owns the real mapping
 * (docs/import.md, test/import/). Fixture facts come from test/fixtures/README.md.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { deriveRelease } from '../../src/release/derive.js';
import { fixturePath } from '../helpers/repo.js';
import { assertWilsonClose } from '../helpers/stats-vectors.js';
import { tempDir } from '../helpers/tmp.js';

interface LmEvalSample {
  doc_id: number;
  doc: { label?: number };
  target: string;
  filter: string;
  filtered_resps: unknown[];
  doc_hash: string;
  acc?: number;
}

function assertClose(actual: readonly number[], expected: readonly number[]): void {
  expected.forEach((e, i) => assertWilsonClose(actual[i]!, e, `bound ${i}`));
}

const readJsonl = (p: string) =>
  readFileSync(p, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as LmEvalSample);

function corpusWith(axis: string, rows: unknown[], extra: Record<string, unknown> = {}): string {
  const dir = join(tempDir(), 'corpus');
  mkdirSync(join(dir, 'axes'), { recursive: true });
  mkdirSync(join(dir, 'peritem'), { recursive: true });
  writeFileSync(
    join(dir, 'board.json'),
    JSON.stringify({
      schema: 'svc.gspc-corpus/1',
      issuer: 'test',
      doi: 'test',
      as_of: '2026-10-01T00:00:00Z',
      measured_on: { model: 'm', date: 'd', grading: 'g' },
      axes: [axis],
    }),
  );
  writeFileSync(
    join(dir, 'axes', `${axis}.json`),
    JSON.stringify({
      axis,
      family: 'f',
      kind: 'model-comparison',
      status: 'MEASURED',
      bench: 'b',
      task: 't',
      dataset: 'd',
      ...extra,
    }),
  );
  writeFileSync(join(dir, 'peritem', `${axis}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return dir;
}

describe('harness output in the per-item row format', () => {
  it('lm-eval COPA, two tiny models: 12/20 vs 16/20, b = 2, c = 6, p = 0.2890625, TIE', () => {
    const rows = [
      ['sshleifer/tiny-gpt2', 'sshleifer__tiny-gpt2/samples_copa_2026-10-01T23-15-32.942677.jsonl'],
      [
        'hf-internal-testing/tiny-random-gpt2',
        'hf-internal-testing__tiny-random-gpt2/samples_copa_2026-10-01T23-15-52.736695.jsonl',
      ],
    ].flatMap(([model, file]) =>
      readJsonl(fixturePath('lm-eval', file!)).map((s) => {
        // Multiple choice: the predicted choice is the arg-max log-likelihood.
        const ll = (s.filtered_resps as [string, string][]).map(([v]) => Number(v));
        const label = String(ll.indexOf(Math.max(...ll)));
        assert.equal(label === String(s.doc.label), s.acc === 1, 'arg-max agrees with lm-eval acc');
        return {
          item: `copa/${s.doc_id}`,
          model,
          gold: String(s.doc.label),
          label,
          item_hash: s.doc_hash,
          harness: 'lm-eval',
          filter: s.filter,
        };
      }),
    );
    const board = deriveRelease(readCorpus(corpusWith('copa', rows, { labels: ['0', '1'] }))).source.axes[0]!.row;
    assert.equal(board.leader, 'hf-internal-testing/tiny-random-gpt2');
    assert.equal(board.accuracy, 0.8);
    assertClose(board.interval!, [0.5839825677481064, 0.919342337420202]);
    const ev = board.separation_evidence!;
    assert.deepEqual([ev.b, ev.c, ev.p, ev.p_mid], [6, 2, 0.2890625, 0.1796875]);
    assertClose(ev.next_best.interval, [0.38658150076225317, 0.781193467627183]);
    assert.equal(board.separation, 'TIE');
  });

  it('lm-eval GSM8K with three filters: one filter chosen, n = 4, all unparsed (not wrong)', () => {
    const samples = readJsonl(
      fixturePath('lm-eval', 'gsm8k-3-filters', 'samples_gsm8k_cot_self_consistency_2026-10-01T13-21-10.261566.jsonl'),
    );
    assert.equal(samples.length, 12);
    const rows = samples
      .filter((s) => s.filter === 'score-first')
      .map((s) => {
        const resp = String((s.filtered_resps as unknown[])[0]);
        return {
          item: `gsm8k/${s.doc_id}`,
          model: 'dummy/lol',
          gold: s.target,
          label: resp === '[invalid]' ? null : resp,
          item_hash: s.doc_hash,
        };
      });
    const row = deriveRelease(readCorpus(corpusWith('gsm8k', rows, { labels: undefined }))).source.axes[0]!.row;
    assert.equal(row.n, 4);
    assert.equal(row.unparsed_rate, 1);
    assert.equal(row.accuracy, undefined, 'no parsed response: no accuracy, never 0');
    assert.equal(row.separation, 'UNTESTED');
  });

  it('Inspect AI JSON log: sample id, gold target and extracted answer', () => {
    const log = JSON.parse(
      readFileSync(fixturePath('inspect', '2025-05-12T20-28-13-04-00_popularity.json'), 'utf8'),
    ) as {
      eval: { model: string; task: string };
      samples: { id: number; target: string; scores: Record<string, { value: string; answer?: string }> }[];
    };
    const rows = log.samples.map((s) => {
      const score = s.scores.match!;
      return {
        item: `${log.eval.task}/${s.id}`,
        model: log.eval.model,
        gold: s.target.trim(),
        label: score.value === 'N' || !score.answer ? null : score.answer.trim(),
      };
    });
    const row = deriveRelease(readCorpus(corpusWith('popularity', rows, { labels: ['Yes', 'No'] }))).source.axes[0]!
      .row;
    assert.equal(row.accuracy, 2 / 3);
    assert.equal(row.leader, 'openai/gpt-4o-mini');
  });
});
