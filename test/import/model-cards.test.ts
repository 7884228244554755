/**
 * Model cards from an import (issue 40): the importer writes to `models.json` what the harness
 * recorded about the model and nothing else. The real lm-eval COPA results (test/fixtures/lm-eval)
 * give parameters, dtype, revision and sha; Every Eval Ever's model_info gives the developer and
 * the weights' availability; two revisions of one model are both kept, two parameter counts are
 * refused, and a second import of the same runs changes no byte.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GspcError } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';
import { HF, SSH, SSH_RESULTS, fixtureCopy, importQuiet, lmEval, snapshot } from './helpers.js';

const AS_OF = '2026-11-01';
const cardsOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'models.json'), 'utf8')) as { models: unknown[] };

describe('model cards from lm-eval', () => {
  it('the real COPA results give parameters, dtype, revision and sha, and nothing else', async () => {
    const into = join(tempDir(), 'c');
    const { out } = await importQuiet('lm-eval', [lmEval(SSH), lmEval(HF)], { into });
    assert.deepEqual(cardsOf(into), {
      schema: 'svc.gspc-corpus-models/1',
      models: [
        {
          model: 'hf-internal-testing/tiny-random-gpt2',
          parameters: 111968,
          revision: 'main',
          sha: '71034c5d8bde858ff824298bdedc65515b97d2b9',
          dtype: 'torch.float32',
        },
        {
          model: 'sshleifer/tiny-gpt2',
          parameters: 102714,
          revision: 'main',
          sha: '5f91d94bd9cd7190a9f3216ff93cd1dd95f2c7be',
          dtype: 'torch.float32',
        },
      ],
    });
    assert.match(out, /models\.json created: sshleifer\/tiny-gpt2: parameters, revision, sha, dtype; /);
    // The corpus reads back with the cards (gspc validate's reader).
    assert.equal(readCorpus(into).modelCards.length, 2);
    // Importing the same runs again changes no byte, and says nothing about models.json.
    const before = snapshot(into);
    const again = await importQuiet('lm-eval', [lmEval(SSH), lmEval(HF)], { into });
    assert.deepEqual(snapshot(into), before);
    assert.equal(again.result.models.state, 'unchanged');
  });

  it('keeps what the operator wrote and adds only what the harness recorded', async () => {
    const into = join(tempDir(), 'c');
    await importQuiet('lm-eval', [lmEval(SSH)], { into });
    const file = join(into, 'models.json');
    const cards = cardsOf(into) as { models: Record<string, unknown>[] };
    cards.models[0] = { model: 'sshleifer/tiny-gpt2', organisation: 'Sam Shleifer', licence: 'mit' };
    writeFileSync(file, JSON.stringify(cards));
    await importQuiet('lm-eval', [lmEval(SSH)], { into });
    assert.deepEqual((cardsOf(into) as { models: unknown[] }).models, [
      {
        model: 'sshleifer/tiny-gpt2',
        organisation: 'Sam Shleifer',
        licence: 'mit',
        parameters: 102714,
        revision: 'main',
        sha: '5f91d94bd9cd7190a9f3216ff93cd1dd95f2c7be',
        dtype: 'torch.float32',
      },
    ]);
  });

  it('two revisions of one model are both kept (decision MC4); two parameter counts are refused, nothing written', async () => {
    const into = join(tempDir(), 'c');
    await importQuiet('lm-eval', [lmEval(SSH)], { into });
    // The same run, recorded at another revision and commit (a copy of the real results file).
    const other = fixtureCopy(SSH);
    const results = JSON.parse(readFileSync(join(other, SSH_RESULTS), 'utf8'));
    results.config.model_revision = 'v2';
    results.config.model_sha = '0123456789abcdef0123456789abcdef01234567';
    writeFileSync(join(other, SSH_RESULTS), JSON.stringify(results));
    await importQuiet('lm-eval', [other], { into });
    const card = (cardsOf(into).models as Record<string, unknown>[])[0]!;
    assert.deepEqual(card.revision, ['main', 'v2']);
    assert.deepEqual(card.sha, [
      '0123456789abcdef0123456789abcdef01234567',
      '5f91d94bd9cd7190a9f3216ff93cd1dd95f2c7be',
    ]);
    assert.equal(card.dtype, 'torch.float32');
    assert.equal(readCorpus(into).modelCards[0]!.revision?.length, 2, 'the corpus reader accepts the lists');

    results.config.model_num_parameters = 7;
    writeFileSync(join(other, SSH_RESULTS), JSON.stringify(results));
    const before = snapshot(into);
    await assert.rejects(
      importQuiet('lm-eval', [other], { into }),
      (e: GspcError) =>
        e.code === 'import_refused' &&
        e.message ===
          `sshleifer/tiny-gpt2: parameters 102714 (models.json) but 7 (${SSH_RESULTS} config): a card holds one parameters; correct models.json or the run, then import again`,
    );
    assert.deepEqual(snapshot(into), before, 'a refused import writes nothing');
  });

  it('a recorded value the corpus would refuse is left out with a note, never written', async () => {
    const into = join(tempDir(), 'c');
    const other = fixtureCopy(SSH);
    const results = JSON.parse(readFileSync(join(other, SSH_RESULTS), 'utf8'));
    results.config.model_sha = 'not-a-sha';
    writeFileSync(join(other, SSH_RESULTS), JSON.stringify(results));
    const { out } = await importQuiet('lm-eval', [other], { into });
    assert.match(
      out,
      /note: results_2026-10-01T23-15-32\.942677\.json config: sha "not-a-sha" left out of sshleifer\/tiny-gpt2's card: must be 7 to 64 lower-case hex characters/,
    );
    assert.equal((cardsOf(into).models as Record<string, unknown>[])[0]!.sha, undefined);
  });

  it('lm-eval samples without a results file record nothing: no models.json', async () => {
    const into = join(tempDir(), 'c');
    const dir = tempDir();
    cpSync(
      lmEval(SSH, 'samples_copa_2026-10-01T23-15-32.942677.jsonl'),
      join(dir, 'samples_copa_2026-10-01T23-15-32.942677.jsonl'),
    );
    await importQuiet('lm-eval', [dir], { into, model: 'sshleifer/tiny-gpt2' });
    assert.equal(existsSync(join(into, 'models.json')), false);
  });
});

describe('model cards from Every Eval Ever and HELM', () => {
  /** The EEE fixture with its aggregate's score set to what its one record gives, and model_info as given. */
  function eeeCopy(modelInfo: (info: Record<string, any>) => void, library = 'demo-lib'): string {
    const dir = tempDir();
    cpSync(fixturePath('every-eval-ever', 'demo_samples.jsonl'), join(dir, 'demo_samples.jsonl'));
    const agg = JSON.parse(readFileSync(fixturePath('every-eval-ever', 'demo_aggregate.json'), 'utf8'));
    agg.evaluation_results[0].score_details.score = 1;
    agg.eval_library.name = library;
    modelInfo(agg.model_info);
    writeFileSync(join(dir, 'demo_aggregate.json'), JSON.stringify(agg));
    return dir;
  }

  it('model_info.developer is the organisation; model_availability open_weights / closed_weights is open_weights', async () => {
    const into = join(tempDir(), 'c');
    await importQuiet('eee', [eeeCopy(() => {})], { into, asOf: AS_OF });
    assert.deepEqual(cardsOf(into).models, [
      { model: 'demo-org/demo-model', organisation: 'demo-org', open_weights: true },
    ]);

    const closed = join(tempDir(), 'c');
    await importQuiet('eee', [eeeCopy((i) => (i.additional_details.model_availability = 'closed_weights'))], {
      into: closed,
      asOf: AS_OF,
    });
    assert.equal((cardsOf(closed).models as Record<string, unknown>[])[0]!.open_weights, false);
  });

  it('a developer with a direction-reversing or invisible character is left out with a note, as one with an escape is (decision MC8)', async () => {
    for (const developer of ['Evil\u202eoC', 'Open\u200bAI', 'Evil\u001b[31mCo']) {
      const into = join(tempDir(), 'c');
      const { out } = await importQuiet('eee', [eeeCopy((i) => (i.developer = developer))], { into, asOf: AS_OF });
      assert.match(
        out,
        /organisation .* left out of demo-org\/demo-model's card: must not contain control, bidirectional or invisible characters/,
      );
      assert.deepEqual(cardsOf(into).models, [{ model: 'demo-org/demo-model', open_weights: true }]);
    }
  });

  it('no developer and availability unknown record nothing; a gspc export gives no organisation (its developer is a split id)', async () => {
    const into = join(tempDir(), 'c');
    await importQuiet(
      'eee',
      [
        eeeCopy((i) => {
          delete i.developer;
          i.additional_details.model_availability = 'unknown';
        }),
      ],
      { into, asOf: AS_OF },
    );
    assert.equal(existsSync(join(into, 'models.json')), false);
    const exported = join(tempDir(), 'c');
    await importQuiet('eee', [eeeCopy((i) => (i.additional_details.model_availability = 'unknown'), 'gspc')], {
      into: exported,
      asOf: AS_OF,
    });
    assert.equal(existsSync(join(exported, 'models.json')), false);
  });

  it('HELM records no card field in a run directory: no models.json (its model metadata registry is not run output)', async () => {
    const into = join(tempDir(), 'c');
    await importQuiet('helm', [fixturePath('helm', 'mmlu-philosophy-gpt2')], { into, asOf: AS_OF });
    assert.equal(existsSync(join(into, 'models.json')), false);
  });
});
