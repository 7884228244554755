/**
 * `gspc import` says what `gspc validate` says (issue 28): an imported axis whose label menu has
 * one label (the real Every Eval Ever fixture's) was accepted without a word while validate
 * warned. And the notice "model … has rows on this axis only" is kept for what it is worth, a
 * likely typo (the same id spelt two ways), not for every model of a board built from several
 * harnesses, where it was 5 of 16 notices.
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runImport } from '../../src/cli/import-command.js';
import { sameModelSpeltOtherwise } from '../../src/release/validate-notices.js';
import { gspc } from '../helpers/cli.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';
import { HF, lmEval, SSH } from '../import/helpers.js';

async function importLoud(format: string, paths: string[], into: string, asOf?: string) {
  let out = '';
  let err = '';
  await runImport(
    format,
    paths,
    { into, ...(asOf && { asOf }) },
    {
      out: (t) => (out += t),
      err: (t) => (err += t),
      tty: false,
    },
  );
  return { out, err };
}

describe('gspc import says what gspc validate says', () => {
  it('a one-label menu imported from Every Eval Ever: the same notice as validate, on stderr', async () => {
    const rows = join(tempDir(), 'demo_samples.jsonl');
    copyFileSync(fixturePath('every-eval-ever', 'demo_samples.jsonl'), rows);
    const corpus = join(tempDir(), 'eee');
    const { err } = await importLoud('eee', [rows], corpus, '2026-01-01');
    assert.match(err, /^2 notices: it would publish, but the board will not say what you may expect:/);
    assert.match(err, /labels: the menu has one label: the board refuses to rank this bank/);
    const v = await gspc(['validate', corpus]);
    const validateNotices = v.stderr.split('\n').filter((l) => l.startsWith('  '));
    for (const n of validateNotices.filter((l) => !/scaffold/.test(l)))
      assert.ok(err.includes(n), `import lacks: ${n}`);
  });
});

describe('"rows on this axis only" only where it likely means a typo', () => {
  it('a board from two harnesses (lm-eval COPA and HELM) has no such notice', async () => {
    const corpus = join(tempDir(), 'two');
    await importLoud('lm-eval', [lmEval(SSH), lmEval(HF)], corpus);
    await importLoud('helm', [fixturePath('helm', 'mmlu-philosophy-gpt2')], corpus, '2025-06-30');
    const v = await gspc(['validate', corpus]);
    assert.equal(v.status, 0, v.stderr);
    assert.doesNotMatch(v.stderr, /rows on this axis only/);
  });

  it('the same model spelt two ways on two axes is named, with the other spelling', async () => {
    const corpus = join(tempDir(), 'typo');
    await importLoud('lm-eval', [lmEval(SSH), lmEval(HF)], corpus);
    await importLoud('helm', [fixturePath('helm', 'mmlu-philosophy-gpt2')], corpus, '2025-06-30');
    // The HELM axis's model spelt as lm-eval would spell another org's id.
    const file = join(corpus, 'peritem', 'mmlu-subject-philosophy.jsonl');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('"openai/gpt2"', '"sshleifer/Tiny_GPT2"'));
    // And its run settings with it (runs.json refuses an entry for a model without rows on the axis).
    const runs = join(corpus, 'runs.json');
    writeFileSync(runs, readFileSync(runs, 'utf8').replaceAll('"openai/gpt2"', '"sshleifer/Tiny_GPT2"'));
    const v = await gspc(['validate', corpus]);
    assert.match(
      v.stderr,
      /model 'sshleifer\/Tiny_GPT2' has rows on this axis only, and 'sshleifer\/tiny-gpt2' elsewhere: the same model spelt two ways\?/,
    );
  });

  it('sameModelSpeltOtherwise: case, separators and an org prefix; never two different models', () => {
    assert.ok(sameModelSpeltOtherwise('Demo/Atlas-70B', 'demo/atlas_70b'));
    assert.ok(sameModelSpeltOtherwise('gpt2', 'openai/gpt2'));
    assert.ok(!sameModelSpeltOtherwise('demo/atlas-70b', 'demo/atlas-7b'));
    assert.ok(!sameModelSpeltOtherwise('org-a/gpt2', 'org-b/gpt2'), 'two orgs: two models');
  });
});
