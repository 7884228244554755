/**
 * `gspc import`'s progress on a terminal (docs/import.md, "Output"): a bar on stderr per run,
 * redrawn in place every 16,384 rows and once when the run is read, then erased; nothing on
 * stderr when it is not a terminal; the summary on stdout either way.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeSyntheticRun } from '../../bench/import-data.js';
import { writeInspectEval } from '../../bench/inspect-fixture.js';
import { runImport } from '../../src/cli/import-command.js';
import { tempDir } from '../helpers/tmp.js';
import { lmEval, SSH } from './helpers.js';

const ERASE = '\r\u001b[K';

async function importOn(tty: boolean, format: string, paths: string[]) {
  let out = '';
  let err = '';
  const io = { out: (t: string) => (out += t), err: (t: string) => (err += t), tty };
  await runImport(format, paths, { into: join(tempDir(), 'corpus') }, io);
  // After the bar, stderr carries what `gspc validate` would say of the corpus (its notices).
  const at = err.search(/\d+ notices?: it would publish/);
  return at === -1 ? { out, err, notices: '' } : { out, err: err.slice(0, at), notices: err.slice(at) };
}

/** Every redraw of the bar: [label, percent (null without a bar), rows]. */
function draws(err: string): [string, number | null, number][] {
  assert.ok(err.endsWith(ERASE), 'the bar is erased before the summary');
  return err
    .slice(0, -ERASE.length)
    .split('\r')
    .slice(1)
    .map((d) => {
      const m = /^(.+?): (?:\[[#.]{30}\] (\d+)% )?([\d,]+) rows$/.exec(d);
      assert.ok(m, `a redraw reads "<task> <model>: [bar] N% R rows": ${JSON.stringify(d)}`);
      return [m[1]!, m[2] === undefined ? null : Number(m[2]), Number(m[3]!.replaceAll(',', ''))];
    });
}

describe('gspc import: progress', () => {
  it('not on a terminal: no bar on stderr (only the notices), the summary on stdout', async () => {
    const { out, err, notices } = await importOn(false, 'lm-eval', [lmEval(SSH)]);
    assert.equal(err, '');
    assert.match(notices, /^2 notices: it would publish/);
    assert.match(out, /rows 20, models 1, items 20, unparsed 0, refused 0\n/);
  });

  it('on a terminal, a small run: one full bar when it is read, then erased; the summary unchanged', async () => {
    const tty = await importOn(true, 'lm-eval', [lmEval(SSH)]);
    assert.equal(tty.err, `\rcopa sshleifer/tiny-gpt2: [${'#'.repeat(30)}] 100% 20 rows${ERASE}`);
    assert.doesNotMatch(tty.out, /\r/);
    assert.match(tty.out, /rows 20, models 1, items 20, unparsed 0, refused 0\n/);
  });

  it('lm-eval, 40,000 lines: redrawn at 16,384 and 32,768 rows with the share of the file read, then 100%', async () => {
    const run = writeSyntheticRun(tempDir(), 40_000);
    const seen = draws((await importOn(true, 'lm-eval', [run.dir])).err);
    assert.deepEqual(
      seen.map(([, , rows]) => rows),
      [16_384, 32_768, 40_000],
    );
    const percents = seen.map(([, p]) => p!);
    // The share of the file's bytes read, which runs a read chunk (1 MiB) ahead of the rows parsed.
    assert.ok(percents[0]! >= 40 && percents[0]! <= 45 && percents[1]! >= 81 && percents[1]! <= 86, `${percents}`);
    assert.equal(percents[2], 100);
    assert.ok(seen.every(([label]) => label === 'copa bench/synthetic-1m'));
  });

  it('Inspect .eval, 17,000 samples: the bar follows the samples read out of the log', async () => {
    const path = join(tempDir(), 'big.eval');
    writeInspectEval(path, 17_000);
    const seen = draws((await importOn(true, 'inspect', [path])).err);
    assert.deepEqual(seen, [
      ['popularity openai/gpt-4o-mini', Math.floor((16_384 / 17_000) * 100), 16_384],
      ['popularity openai/gpt-4o-mini', 100, 17_000],
    ]);
  });
});
