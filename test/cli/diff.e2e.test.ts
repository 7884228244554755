/**
 * `gspc diff` (issue 31) on real releases: the demo, then an edited copy (test/helpers/
 * edited-demo.ts: a leader changed, a bank refused so its cards are withdrawn, a correction
 * added). Each release is verified first; a tampered one is not
 * compared. The demo against itself: nothing changed.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { runCli } from '../helpers/process.js';
import { ADDED_CORRECTION, editedDemo } from '../helpers/edited-demo.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON output */
type Json = any;

const data = tempDir();

const ids: string[] = [];

describe('gspc diff', () => {
  before(async () => {
    const edited = editedDemo();
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    for (const corpus of [demoCorpus, edited]) {
      const r = await gspc(['publish', corpus, '--data-dir', data, '--public-url', 'http://localhost:8770']);
      assert.equal(r.status, 0, r.stderr);
      ids.push(/^published (r-[0-9a-f]{20})/.exec(r.stdout)![1]!);
    }
  });
  const dir = (i: number) => join(data, 'releases', ids[i]!);

  it('names exactly what the edits changed: the governance leader, the care bank refused (its cards withdrawn), the correction added', async () => {
    const r = await gspc(['diff', dir(0), dir(1), '--json']);
    assert.equal(r.status, 0, r.stderr);
    const d = JSON.parse(r.stdout) as Json;
    assert.equal(d.schema, 'svc.release-diff/1');
    assert.deepEqual(d.axes, {
      added: [],
      removed: [],
      changed: [
        { axis: 'governance', field: 'leader', from: 'demo/atlas-70b', to: 'demo/borealis-34b' },
        { axis: 'care', field: 'leader', from: 'demo/atlas-70b', to: null },
        { axis: 'care', field: 'separation', from: 'TIE', to: 'UNTESTED' },
        { axis: 'care', field: 'accuracy', from: d.axes.changed[3]?.from, to: null },
      ],
    });
    assert.equal(typeof d.axes.changed[3].from, 'number', 'care had an accuracy before');
    assert.deepEqual(
      d.corrections.added.map((c: Json) => c.id),
      [ADDED_CORRECTION],
    );
    assert.ok(d.cards.added.every((c: Json) => c.what.endsWith(' on governance')));
    assert.equal(d.cards.withdrawn.length, 4, 'the four care cards');
    for (const w of d.cards.withdrawn)
      assert.equal(w.reason, 'refused bank: the exact-label menu has fewer than two distinct labels');
    assert.deepEqual(d.cards.removed, [], 'every card gone from the root is named as superseded');
    assert.deepEqual(
      d.cards.superseded.map((c: Json) => c.by).sort(),
      [...d.cards.added, ...d.cards.withdrawn].map((c: Json) => c.sha256).sort(),
      'each old card is superseded by the governance card that replaced it or the care card withdrawn at birth',
    );
    assert.deepEqual(d.key_transitions.added, []);
  });

  it('in words, one change a line; the compiled bin says the same', async () => {
    const r = runCli(['diff', dir(0), dir(1)]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.match(lines[0]!, new RegExp(`^${ids[0]} \\(as of .*\\) → ${ids[1]} \\(as of .*\\)$`));
    assert.equal(lines[1], 'governance: leader "demo/atlas-70b" → "demo/borealis-34b"');
    assert.ok(
      lines.includes('correction added: C-2026-1120-01: The governance rows of two models were swapped at import.'),
    );
  });

  it('a release against itself: nothing changed', async () => {
    const r = await gspc(['diff', dir(0), dir(0)]);
    assert.deepEqual(r.stdout.trim().split('\n').slice(1), ['nothing changed']);
  });

  it('a release that fails gspc verify is not compared; a path that is no release is refused', async () => {
    const copy = join(tempDir(), ids[1]!);
    cpSync(dir(1), copy, { recursive: true });
    const bundle = join(copy, 'evidence', 'cards-bundle.json');
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('"accuracy": 0.', '"accuracy": 1.'));
    const r = await gspc(['diff', dir(0), copy]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /fails gspc verify \(.*\): it is not compared/);
    const none = await gspc(['diff', dir(0), tempDir()]);
    assert.match(none.stderr, /is neither an http\(s\) base URL nor a release directory/);
  });
});
