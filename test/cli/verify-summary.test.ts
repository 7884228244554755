/**
 * `gspc verify`'s last line says what failed first (issue 28: after a tampered file it read
 * "INVALID: 5 of 5 cards valid, 2 failed checks", which looked like a pass), and a pass says so.
 */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

describe('gspc verify: the summary line', () => {
  it('a pass: VALID, every check passes; a tampered release: INVALID, the failed checks named first', async () => {
    const data = tempDir();
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    const pub = await gspc(['publish', demoCorpus, '--data-dir', data]);
    assert.equal(pub.status, 0, pub.stderr);
    const dir = pub.stdout.split('\n')[1]!.trim();
    const ok = await gspc(['verify', dir]);
    assert.match(ok.stdout.trim().split('\n').at(-1)!, /^VALID: every check passes, 36 of 36 cards valid$/);
    appendFileSync(join(dir, 'corpus', 'peritem', 'governance.jsonl'), '\n');
    const bad = await gspc(['verify', dir]);
    assert.equal(bad.status, 1);
    assert.match(
      bad.stdout.trim().split('\n').at(-1)!,
      /^INVALID: \d+ failed checks? \([a-z_, ]+\)(?: and \d+ invalid cards?)?; \d+ of \d+ cards valid$/,
    );
  });
});
