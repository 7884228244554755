/**
 * `gspc validate` means "would publish" (issue 16): the whole derivation in memory, every notice
 * a published board would only show afterwards (an own model misspelt, a base model with no rows,
 * a one-label bank, an own model at the top, a row under n = 30, UNTESTED with its reason, labels
 * off the menu), and `--preview` / `--json`: the board it would publish, equal to the board
 * the service then serves, with nothing written.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoApp } from '../helpers/app.js';
import { gspc } from '../helpers/cli.js';
import { demoCopy, demoCorpus } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- board JSON */
const KEYS = ['axis', 'status', 'leader', 'accuracy', 'interval', 'n', 'separation', 'separation_p', 'quotable'];
const pick = (row: any) => Object.fromEntries(KEYS.filter((k) => k in row).map((k) => [k, row[k]]));

describe('gspc validate', () => {
  it('on the demo: ok, and each notice of what the board will show, by file and field', async () => {
    const r = await gspc(['validate', demoCorpus]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^ok: 22 axes, 7502 per-item rows, 51 files\n$/);
    const notices = r.stderr
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => l.trim());
    assert.match(r.stderr, /^\d+ notices: it would publish, but the board will not say what you may expect:/);
    for (const expected of [
      'peritem/conformance.jsonl: the best model is an own model: the public leader slot stays empty (own models never lead)',
      'peritem/cross-reality.jsonl: n = 24 < 30: the row is not quotable',
      'axes/detector-interop.json labels: the menu has one label: the board refuses to rank this bank (no leader, accuracy or interval)',
      "axes/distribution-integrity.json base_models[1]: 'demo/borealis-34b' has no rows on this axis, so it can never be the basis",
      'axes/ai-adoption-components.json: separation UNTESTED: no base model besides the leader: no compatible basis',
    ])
      assert.ok(notices.includes(expected), `missing notice: ${expected}\n${r.stderr}`);
  });

  it('an own model that has no rows (a typo) and labels off the menu are named', async () => {
    const dir = demoCopy();
    const boardFile = join(dir, 'board.json');
    const board = JSON.parse(readFileSync(boardFile, 'utf8'));
    board.own_models = [...board.own_models, 'demo/atlas-7Ob'];
    writeFileSync(boardFile, JSON.stringify(board, null, 2));
    const rowsFile = join(dir, 'peritem', 'governance.jsonl');
    const lines = readFileSync(rowsFile, 'utf8').split('\n');
    const row = JSON.parse(lines[0]!);
    row.label = 'perhaps';
    lines[0] = JSON.stringify(row);
    writeFileSync(rowsFile, lines.join('\n'));
    const r = await gspc(['validate', dir]);
    assert.equal(r.status, 0, r.stderr);
    const i = board.own_models.length - 1;
    assert.match(
      r.stderr,
      new RegExp(`board\\.json own_models\\[${i}\\]: 'demo/atlas-7Ob' has no per-item rows on any axis`),
    );
    assert.ok(JSON.parse(readFileSync(join(dir, 'axes', 'governance.json'), 'utf8')).labels, 'governance has a menu');
    assert.match(
      r.stderr,
      /peritem\/governance\.jsonl label: labels not in the axis's labels, each graded wrong: 'perhaps' \(1 row\)/,
    );
  });

  it('--json is the board the service serves once published (row for row), and nothing is written', async () => {
    const dir = demoCopy();
    const before = readdirSync(dir).sort();
    const r = await gspc(['validate', dir, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const preview = JSON.parse(r.stdout);
    assert.equal(preview.schema, 'svc.gspc-axes/0.5');
    assert.equal(preview.measured_on.living_stamp.verification_state, 'UNSIGNED');
    const { app } = demoApp(dir);
    const served = (await app.inject('/api/gspc')).json() as any;
    assert.deepEqual(preview.axes.map(pick), served.axes.map(pick));
    assert.deepEqual(preview.totals, served.totals);
    assert.deepEqual(readdirSync(dir).sort(), before);
  });

  it('--preview prints one line per axis: state, leader, accuracy, interval, n and separation', async () => {
    const r = await gspc(['validate', demoCorpus, '--preview']);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(lines[1]!, /^axis\s+status\s+leader\s+accuracy\s+interval\s+n\s+separation$/);
    assert.equal(lines.filter((l) => /^[a-z0-9-]+\s{2,}[A-Z_]+/.test(l)).length, 22);
    assert.match(
      r.stdout,
      /\ngovernance\s+MEASURED\s+demo\/atlas-70b\s+0\.855\s+\[0\.817, 0\.886\]\s+400\s+SEPARATED p=/,
    );
    assert.match(r.stdout, /\nconformance\s+MEASURED\s+\(EXCLUDED_OWN_MODEL\)/);
  });
});
