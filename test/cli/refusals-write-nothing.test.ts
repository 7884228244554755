/**
 * A refusal writes nothing (issue 28): a refused `import … --into ./c2`, `pull … --data-dir
 * ./replica0` or `publish … --data-dir` into a directory that did not exist left an empty
 * directory behind, while the docs say a refusal changes nothing. Each now leaves the file tree
 * as it was, including parents it would have made; an existing directory is kept as it was.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { fixturePath } from '../helpers/repo.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const env = { GSPC_LOG_LEVEL: 'silent' };

describe('a refused command leaves no directory behind', () => {
  it('import: a refused run into a new --into (and its new parent) makes nothing', async () => {
    const root = tempDir();
    const into = join(root, 'parent', 'c2');
    // The EEE fixture's aggregate (0.75) disagrees with its one row: refused.
    const r = await gspc(['import', 'eee', fixturePath('every-eval-ever'), '--into', into]);
    assert.equal(r.status, 2, r.stderr);
    assert.deepEqual(readdirSync(root), []);
  });

  it('import: refused into an existing corpus directory, it keeps the directory and adds nothing', async () => {
    const into = join(tempDir(), 'c3');
    mkdirSync(into);
    const r = await gspc(['import', 'eee', fixturePath('every-eval-ever'), '--into', into]);
    assert.equal(r.status, 2);
    assert.deepEqual(readdirSync(into), []);
  });

  it('pull: refused into a new --data-dir (published for another origin) makes nothing', async () => {
    const pub = tempDir();
    assert.equal((await gspc(['keygen', '--data-dir', pub])).status, 0);
    assert.equal(
      (await gspc(['publish', demoCorpus, '--data-dir', pub, '--public-url', 'http://localhost:8080'])).status,
      0,
    );
    const root = tempDir();
    const replica = join(root, 'replica0');
    const r = await gspc(['pull', pub, '--data-dir', replica, '--public-url', 'http://localhost:9999'], env);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /release_wrong_origin|was published for/);
    assert.equal(existsSync(replica), false);
    assert.deepEqual(readdirSync(root), []);
  });

  it('publish: refused (an invalid corpus) into a new --data-dir makes nothing', async () => {
    const root = tempDir();
    const data = join(root, 'data');
    const r = await gspc(['publish', join(root, 'no-such-corpus'), '--data-dir', data, '--allow-unsigned'], env);
    assert.equal(r.status, 2, r.stderr);
    assert.deepEqual(readdirSync(root), []);
  });
});
