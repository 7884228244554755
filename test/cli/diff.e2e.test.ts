/**
 * `gspc diff` (issue 31) on real releases: the demo, then an edited copy in which the governance
 * rows of the two leading models are swapped (so the leader changes, and nothing else on the
 * board) and a correction is added. Each release is verified first; a tampered one is not
 * compared. The demo against itself: nothing changed.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { runCli } from '../helpers/process.js';
import { editedDemo } from '../helpers/edited-demo.js';
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

  it('names exactly the leader that changed, the governance cards superseded, and the correction added', async () => {
    const r = await gspc(['diff', dir(0), dir(1), '--json']);
    assert.equal(r.status, 0, r.stderr);
    const d = JSON.parse(r.stdout) as Json;
    assert.equal(d.schema, 'svc.release-diff/1');
    assert.deepEqual(d.axes, {
      added: [],
      removed: [],
      changed: [{ axis: 'governance', field: 'leader', from: 'demo/atlas-70b', to: 'demo/borealis-34b' }],
    });
    assert.deepEqual(
      d.corrections.added.map((c: Json) => c.id),
      ['C-2026-1120-01'],
    );
    assert.ok(d.cards.superseded.length > 0);
    assert.deepEqual(d.cards.removed, [], 'every card gone from the root is named as superseded');
    assert.ok(d.cards.added.every((c: Json) => c.what.endsWith(' on governance')));
    assert.deepEqual(d.cards.superseded.map((c: Json) => c.by).sort(), d.cards.added.map((c: Json) => c.sha256).sort());
    assert.deepEqual([d.cards.withdrawn, d.key_transitions.added], [[], []]);
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
