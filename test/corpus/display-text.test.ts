/**
 * Operator-supplied display text (decision MC8, src/corpus/display-text.ts): a card's
 * organisation, licence, revision and dtype, a price's source, and runs.json's harness, version
 * and setting names refuse control, bidirectional and invisible characters at file:line, as
 * model ids do: `Evil\u202eoC` displays as another name, `Open\u200bAI` as `OpenAI`. Spaces stay
 * allowed.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { type CorpusProblem, formatProblem, GspcError } from '../../src/core/errors.js';
import { displayText, hasHiddenChars } from '../../src/corpus/display-text.js';
import { modelIdProblem } from '../../src/corpus/model-id.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { demoCopy } from '../helpers/tmp.js';

const HIDDEN = ['\u202e', '\u200b', '\u200d', '\u2066', '\u061c', '\u00ad', '\ufeff', '\u0007', '\u007f', '\u009b'];
const REASON = 'must not contain control, bidirectional or invisible characters';

function problems(dir: string): string[] {
  try {
    readCorpus(dir);
    return [];
  } catch (e) {
    assert.ok(e instanceof GspcError && e.code === 'corpus_invalid', String(e));
    return (e.details!.problems as CorpusProblem[]).map(formatProblem);
  }
}

/** The demo with `name` written as the file's pretty-printed JSON. */
function withFile(name: string, body: unknown): string {
  const dir = demoCopy();
  writeFileSync(join(dir, name), `${JSON.stringify(body, null, 2)}\n`);
  return dir;
}

describe('display text', () => {
  it('one character class for model ids and display text; spaces are display text', () => {
    for (const c of HIDDEN) {
      assert.ok(hasHiddenChars(`a${c}b`), JSON.stringify(c));
      assert.equal(displayText(200).safeParse(`a${c}b`).success, false);
      assert.notEqual(modelIdProblem(`a${c}b`), undefined);
    }
    assert.equal(displayText(200).safeParse('Open AI, Inc. — Zürich 東京').success, true);
    assert.notEqual(modelIdProblem('a b'), undefined);
  });

  it('refuses each card text field at its line', () => {
    const dir = withFile('models.json', {
      schema: 'svc.gspc-corpus-models/1',
      models: [
        { model: 'demo/atlas-70b', organisation: 'Evil\u202eoC', licence: 'Apache\u200b-2.0' },
        { model: 'demo/borealis-34b', revision: ['main', 'v\u20661'], dtype: 'bf16\u00ad' },
        { model: 'demo/cirrus-8b', organisation: 'Open AI' },
      ],
    });
    assert.deepEqual(problems(dir), [
      `models.json:6 models.0.organisation: ${REASON}`,
      `models.json:7 models.0.licence: ${REASON}`,
      `models.json:13 models.1.revision.1: ${REASON}`,
      `models.json:15 models.1.dtype: ${REASON}`,
    ]);
  });

  it("refuses a price's source and runs.json's harness, version and setting names", () => {
    const prices = withFile('prices.json', {
      schema: 'svc.gspc-corpus-prices/1',
      prices: [
        {
          model: 'demo/atlas-70b',
          input_usd_per_mtok: 1,
          output_usd_per_mtok: 2,
          read_on: '2026-10-01',
          source: 'Open\u200bAI price page',
        },
      ],
    });
    assert.deepEqual(problems(prices), [`prices.json:9 prices.0.source: ${REASON}`]);
    const runs = withFile('runs.json', {
      schema: 'svc.gspc-corpus-runs/1',
      runs: [
        {
          model: 'demo/atlas-70b',
          axis: 'governance',
          harness: 'lm\u202eeval',
          harness_version: '0.4\u200b.13',
          generation: { 'temp\u200derature': 0 },
        },
      ],
    });
    const text = problems(runs);
    assert.deepEqual(text.slice(0, 2), [
      `runs.json:7 runs.0.harness: ${REASON}`,
      `runs.json:8 runs.0.harness_version: ${REASON}`,
    ]);
    // zod reports a refused record key without the key rule's message.
    assert.match(text[2] ?? '', /^runs\.json:10 runs\.0\.generation\..*: Invalid key in record/);
    assert.equal(text.length, 3, text.join('\n'));
  });
});
