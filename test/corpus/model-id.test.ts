/**
 * One rule for a model id (review of issue 39): no white space, no control characters, no
 * bidirectional controls (a right-to-left override made an id display as another in a terminal
 * and a feed reader), at most 200 characters with that reason, not "without spaces". The rows,
 * the corpus schema and the status files share it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MODEL_ID_MAX, modelIdProblem, modelIdSchema } from '../../src/corpus/model-id.js';

describe('a model id', () => {
  it('accepts harness ids as they come', () => {
    for (const id of [
      'openai/gpt-4o-mini',
      'ollama/llama3.1',
      'meta-llama/Llama-3.1-8B-Instruct',
      'x'.repeat(MODEL_ID_MAX),
      'évaluation/模型',
    ])
      assert.equal(modelIdProblem(id), undefined, id);
  });

  it('refuses each kind of id with its own reason', () => {
    assert.match(modelIdProblem('x'.repeat(MODEL_ID_MAX + 1))!, /at most 200 characters \(it has 201\)/);
    assert.match(modelIdProblem('')!, /non-empty/);
    assert.match(modelIdProblem(42)!, /non-empty/);
    for (const bad of [
      'a b',
      'a\tb',
      'a\u0000b',
      'a\u007fb',
      'evil/\u202egnp.exe',
      'a\u2066b',
      'a\u200fb',
      // C1 (U+009B is a one-byte CSI), the Arabic letter mark, and the invisible ones that make
      // demo/atlas\u200b-70b read as demo/atlas-70b (second review of issue 39).
      'a\u0085b',
      'a\u009bb',
      'a\u061cb',
      'demo/atlas\u200b-70b',
      'a\u200cb',
      'a\u200db',
      'a\u2060b',
      'a\u00adb',
      'a\ufeffb',
    ])
      assert.match(
        modelIdProblem(bad)!,
        /without spaces, control, bidirectional or invisible characters/,
        JSON.stringify(bad),
      );
  });

  it('the zod schema says the same', () => {
    const r = modelIdSchema.safeParse('evil/\u202eabc');
    assert.equal(r.success, false);
    assert.match(r.error!.issues[0]!.message, /bidirectional/);
    assert.equal(modelIdSchema.safeParse('openai/gpt-4o').success, true);
  });
});
