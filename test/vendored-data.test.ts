/**
 * The vendored test data stands alone: every line of each folder's SHA256SUMS matches its file,
 * and every data file in the folder is listed (READMEs and SHA256SUMS itself excepted), so a
 * changed, missing, unlisted or linked-in file fails here. The counts are pinned so that deleting
 * a file together with its line fails too; adding data means adding its line and its count.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { repoPath } from './helpers/repo.js';

const FOLDERS: ReadonlyArray<readonly [folder: string, files: number]> = [
  ['test/vectors', 256],
  ['test/fixtures', 30],
  ['schemas', 3],
];

/** Every file under dir, as a /-separated path relative to dir; anything but a file or folder fails. */
function filesUnder(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(root, p);
    assert.ok(e.isFile(), `${p} is not a regular file (a link could point outside the repository)`);
    return [relative(root, p).split(sep).join('/')];
  });
}

function listed(sums: string, folder: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of sums.split('\n')) {
    if (line === '') continue;
    const m = /^([0-9a-f]{64}) [ *](\S.*)$/.exec(line);
    assert.ok(m, `${folder}/SHA256SUMS: malformed line ${JSON.stringify(line)}`);
    const sum = m[1]!;
    const path = m[2]!;
    assert.ok(
      !posix.isAbsolute(path) && !path.split('/').includes('..'),
      `${folder}/SHA256SUMS: ${path} is not inside the folder`,
    );
    assert.ok(!out.has(path), `${folder}/SHA256SUMS lists ${path} twice`);
    out.set(path, sum);
  }
  return out;
}

describe('vendored data (test/vectors, test/fixtures, schemas)', () => {
  for (const [folder, count] of FOLDERS) {
    it(`${folder}: every SHA256SUMS line matches its file, and all ${count} data files are listed`, () => {
      const parts = folder.split('/');
      const root = repoPath(...parts);
      repoPath(...parts, 'README.md'); // source and licence beside the data
      const sums = listed(readFileSync(repoPath(...parts, 'SHA256SUMS'), 'utf8'), folder);
      for (const [path, sum] of sums) {
        const actual = createHash('sha256')
          .update(readFileSync(repoPath(...parts, ...path.split('/'))))
          .digest('hex');
        assert.equal(actual, sum, `${folder}/${path} does not match SHA256SUMS`);
      }
      const data = filesUnder(root).filter((f) => f !== 'SHA256SUMS' && posix.basename(f) !== 'README.md');
      const unlisted = data.filter((f) => !sums.has(f));
      assert.deepEqual(unlisted, [], `${folder}: files not listed in SHA256SUMS`);
      assert.equal(sums.size, count, `${folder}/SHA256SUMS lists ${sums.size} files, expected ${count}`);
      assert.equal(data.length, count);
    });
  }
});
