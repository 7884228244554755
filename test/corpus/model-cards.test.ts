/**
 * `models.json` (issue 40, model cards): the schema accepts what docs/formats.md says and refuses
 * the rest at file:line, with the corpus's other problems (corpus_invalid); absent fields stay
 * absent (unknown), never filled with a default.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { CorpusProblem, GspcError } from '../../src/core/errors.js';
import { formatProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { demoCopy } from '../helpers/tmp.js';

const problemsOf = (dir: string): string[] => {
  try {
    readCorpus(dir);
    return [];
  } catch (e) {
    const problems = (e as GspcError).details?.problems as CorpusProblem[] | undefined;
    if (problems === undefined) throw e;
    return problems.map(formatProblem);
  }
};

/** A copy of the demo corpus with `models` as its models.json (pretty-printed: one field a line). */
function withCards(models: unknown[], extra: Record<string, unknown> = {}): string {
  const dir = demoCopy();
  writeFileSync(
    join(dir, 'models.json'),
    `${JSON.stringify({ schema: 'svc.gspc-corpus-models/1', models, ...extra }, null, 2)}\n`,
  );
  return dir;
}

describe('models.json', () => {
  it('is optional: the demo has none and reads no cards', () => {
    assert.deepEqual(readCorpus(demoCopy()).modelCards, []);
  });

  it('accepts every field, a month as knowledge cutoff, lists of run values; keeps absent fields absent', () => {
    const full = {
      model: 'demo/atlas-70b',
      organisation: 'Demo Labs',
      open_weights: true,
      licence: 'apache-2.0',
      parameters: 70_553_706_496,
      release_date: '2024-07-23',
      knowledge_cutoff: '2023-12',
      revision: ['main', 'v1.1'],
      sha: '5f91d94bd9cd7190a9f3216ff93cd1dd95f2c7be',
      dtype: 'torch.bfloat16',
      url: 'https://example.org/models/atlas?x=<b>',
    };
    const c = readCorpus(withCards([{ model: 'demo/borealis-34b', open_weights: false }, full]));
    assert.deepEqual(c.modelCards, [{ model: 'demo/borealis-34b', open_weights: false }, full]);
    // Nothing defaulted: a card with one field has exactly that field.
    assert.deepEqual(Object.keys(c.modelCards[0]!), ['model', 'open_weights']);
    assert.ok(
      c.files.some((f) => f.path === 'models.json'),
      'published with the corpus',
    );
  });

  it('refuses each bad field at its line, all at once', () => {
    const dir = withCards([
      {
        model: 'demo/atlas-70b',
        parameters: 1.5, // line 6
        url: 'http://example.org/', // line 7
        release_date: '2025-02-30', // line 8
        knowledge_cutoff: '2024', // line 9
        sha: 'ABCDEF0', // line 10
        revision: ['main'], // lines 11-13
        open_weights: 'yes', // line 14
        size: '70B', // line 15: not a field
      },
    ]);
    assert.deepEqual(problemsOf(dir).sort(), [
      'models.json:10 models.0.sha: must be 7 to 64 lower-case hex characters',
      'models.json:11 models.0.revision: a list holds the values of runs that differ: at least two (one value is a plain string)',
      'models.json:14 models.0.open_weights: Invalid input: expected boolean, received string',
      'models.json:4 models.0: Unrecognized key: "size"',
      'models.json:6 models.0.parameters: must be a whole number of parameters',
      'models.json:7 models.0.url: must be an absolute https:// URL without user or password',
      'models.json:8 models.0.release_date: is not a real date',
      'models.json:9 models.0.knowledge_cutoff: must be an ISO 8601 date (YYYY-MM-DD) or month (YYYY-MM)',
    ]);
  });

  it('refuses an address with a password, a model id with a space, a missing id, an unknown top-level key', () => {
    assert.deepEqual(problemsOf(withCards([{ model: 'demo/atlas-70b', url: 'https://u:p@example.org/' }])), [
      'models.json:6 models.0.url: must be an absolute https:// URL without user or password',
    ]);
    assert.deepEqual(problemsOf(withCards([{ model: 'demo/atlas 70b' }])), [
      'models.json:5 models.0.model: must be a model id without spaces, control, bidirectional or invisible characters',
    ]);
    // A missing key is reported at its card (the line of its opening brace).
    assert.deepEqual(problemsOf(withCards([{ organisation: 'X' }])), [
      'models.json:4 models.0.model: Invalid input: expected string, received undefined',
    ]);
    assert.deepEqual(problemsOf(withCards([], { note: 'x' })), ['models.json:1: Unrecognized key: "note"']);
  });

  it('refuses a second card for a model, and a card for a model measured on no axis (decision MC2)', () => {
    const dir = withCards([
      { model: 'demo/atlas-70b', parameters: 1 },
      { model: 'demo/atlas-70b', parameters: 2 },
      { model: 'demo/atlas-70B', parameters: 3 },
    ]);
    assert.deepEqual(problemsOf(dir), [
      "models.json:9 models.1.model: 'demo/atlas-70b' has a card already (models.0): one card per model",
      "models.json:13 models.2.model: 'demo/atlas-70B' has no rows or results on any model-comparison axis: a card is for a measured model",
    ]);
  });

  it('a card for a model with aggregate results only is a card for a measured model', () => {
    const c = readCorpus(demoCopy());
    const aggregate = c.definitions.flatMap((d) => (d.kind === 'model-comparison' ? (d.results ?? []) : []));
    assert.ok(aggregate.length > 0, 'the demo has an aggregate-only axis');
    const model = aggregate[0]!.model;
    assert.deepEqual(readCorpus(withCards([{ model, licence: 'mit' }])).modelCards, [{ model, licence: 'mit' }]);
  });
});
