import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError } from '../../src/core/errors.js';
import { currentReleaseDir, loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { demoCopy, demoCorpus, tempDir } from '../helpers/tmp.js';
import { testSigning } from '../helpers/app.js';

const signing = testSigning().inputs;

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(dir, join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}

describe('publish', () => {
  it('publishing the same corpus twice gives the same id and byte-identical files', () => {
    const a = publishRelease(demoCorpus, tempDir(), signing);
    const b = publishRelease(demoCorpus, tempDir(), signing);
    assert.equal(a.id, b.id);
    const files = listFiles(a.dir);
    assert.deepEqual(files, listFiles(b.dir));
    for (const f of files) assert.deepEqual(readFileSync(join(a.dir, f)), readFileSync(join(b.dir, f)), f);
    assert.ok(files.includes(join('corpus', 'peritem', 'governance.jsonl')));
  });

  it('re-publishing an unchanged corpus reuses the release; a changed corpus makes a new one current', () => {
    const data = tempDir();
    const first = publishRelease(demoCorpus, data, signing);
    assert.equal(publishRelease(demoCorpus, data, signing).reused, true);
    const changed = demoCopy();
    writeFileSync(join(changed, 'lane.json'), '[]\n');
    const second = publishRelease(changed, data, signing);
    assert.notEqual(second.id, first.id);
    assert.equal(currentReleaseDir(data), second.dir);
    assert.equal(
      readFileSync(join(first.dir, 'corpus', 'lane.json'), 'utf8').length > 3,
      true,
      'the old release stays byte for byte',
    );
  });

  it('a crash at any step leaves the previous release current and nothing half-written visible', () => {
    const data = tempDir();
    const first = publishRelease(demoCorpus, data, signing);
    const changed = demoCopy();
    writeFileSync(join(changed, 'lane.json'), '[]\n');
    for (const step of ['files-written', 'release-renamed'] as const) {
      assert.throws(
        () =>
          publishRelease(changed, data, signing, {
            onStep: (s) => {
              if (s === step) throw new Error(`crash at ${s}`);
            },
          }),
        /crash/,
      );
      assert.equal(currentReleaseDir(data), first.dir, step);
      assert.equal(loadRelease(currentReleaseDir(data)!).id, first.id);
      assert.deepEqual(
        readdirSync(join(data, 'releases')).filter((n) => n.startsWith('.tmp')),
        [],
        'no temporary directory is left',
      );
    }
  });

  it('an invalid corpus is refused and the current release is untouched', () => {
    const data = tempDir();
    const first = publishRelease(demoCorpus, data, signing);
    const bad = demoCopy();
    writeFileSync(join(bad, 'peritem', 'safety.jsonl'), '{"oops": 1}\n');
    assert.throws(
      () => publishRelease(bad, data, signing),
      (e: unknown) => e instanceof GspcError && e.code === 'corpus_invalid',
    );
    assert.equal(currentReleaseDir(data), first.dir);
    assert.equal(readdirSync(join(data, 'releases')).length, 1);
  });

  it('a release whose files were changed after publishing is refused, not served', () => {
    const { dir } = publishRelease(demoCorpus, tempDir(), signing);
    const path = join(dir, 'corpus', 'peritem', 'safety.jsonl');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"label":"refuse"', '"label":"comply"'));
    assert.throws(
      () => loadRelease(dir),
      (e: unknown) => e instanceof GspcError && e.code === 'release_invalid' && /safety\.jsonl/.test(e.message),
    );
  });
});
