/**
 * The keygen guard looks at what the key directory holds (issue 36, defect 6). Before, `gspc
 * keygen --key-dir ./copy/keys --force` replaced the keys of a data directory that had releases,
 * because the guard looked only at `--data-dir` (./data, empty). Now a key directory that signs a
 * published log says so itself: the `in-use.json` every signed publish writes into it, its
 * transitions or pending change, or the releases of the data directory around it. Each is
 * refused (`keys_in_use`) writing nothing; a fresh key directory is not.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const ok = async (args: string[]) => {
  const r = await gspc(args);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r;
};
const keysOf = (keyDir: string) => readFileSync(join(keyDir, 'public-keys.json'), 'utf8');

describe('keygen --force refuses a key directory that signs a published log, whatever --data-dir says', async () => {
  const data = tempDir();
  await ok(['keygen', '--data-dir', data]);
  await ok(['publish', demoCorpus, '--data-dir', data, '--public-url', 'http://localhost:8080']);

  const refused = async (keyDir: string, reason: RegExp) => {
    const before = keysOf(keyDir);
    // --data-dir names an empty directory: the guard cannot learn anything from it.
    const r = await gspc(['keygen', '--key-dir', keyDir, '--force', '--data-dir', tempDir()]);
    assert.equal(r.status, 2, r.stdout);
    assert.match(r.stderr, reason);
    assert.match(r.stderr, /keygen --force would break that log for good.*gspc keys rotate.*nothing was written/);
    assert.equal(keysOf(keyDir), before, 'no key replaced');
  };

  it('the issue: a copy of the data directory, its keys named with --key-dir', async () => {
    const copy = join(tempDir(), 'copy');
    cpSync(data, copy, { recursive: true, verbatimSymlinks: true });
    await refused(join(copy, 'keys'), /has signed published releases \(in-use\.json\)/);
  });

  it('the key directory copied alone: its in-use.json says which release it signed', async () => {
    const keys = join(tempDir(), 'keys');
    cpSync(join(data, 'keys'), keys, { recursive: true });
    const use = JSON.parse(readFileSync(join(keys, 'in-use.json'), 'utf8')) as {
      did: string;
      release: string;
      log_size: number;
    };
    assert.equal(use.did, 'did:web:localhost%3A8080');
    assert.match(use.release, /^r-[0-9a-f]{20}$/);
    assert.equal(use.log_size, 36);
    await refused(keys, /has signed published releases \(in-use\.json\)/);
  });

  it('a key directory whose marker is gone but that sits in a data directory with releases', async () => {
    const copy = join(tempDir(), 'copy');
    cpSync(data, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => !src.endsWith('in-use.json') });
    await refused(join(copy, 'keys'), /the data directory around .* has published releases/);
  });

  it('a key directory holding a pending key change', async () => {
    const copy = join(tempDir(), 'copy');
    cpSync(data, copy, { recursive: true, verbatimSymlinks: true });
    await ok(['keys', 'rotate', 'board', '--data-dir', copy]);
    const keys = join(tempDir(), 'keys');
    cpSync(join(copy, 'keys'), keys, { recursive: true, filter: (src) => !src.endsWith('in-use.json') });
    await refused(keys, /holds a pending key change/);
  });

  it('a fresh key directory is made, and replaced with --force while nothing depends on it', async () => {
    const keys = join(tempDir(), 'fresh');
    await ok(['keygen', '--key-dir', keys, '--data-dir', tempDir()]);
    const before = keysOf(keys);
    await ok(['keygen', '--key-dir', keys, '--force', '--data-dir', tempDir()]);
    assert.notEqual(keysOf(keys), before);
    assert.ok(existsSync(join(keys, 'identity-root.key')));
  });
});
