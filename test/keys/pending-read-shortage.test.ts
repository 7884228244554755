/**
 * Issue 38: a pending.json that cannot be read because the process is out of descriptors says
 * nothing of the file. keyStates reports it (`pendingUnread`), so the service's health check
 * keeps the key states it holds and reads again, instead of dropping a staged change until the
 * key directory next changes. Run in a child that has used up its descriptors for real.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { keyStates } from '../../src/keys/signing.js';
import { TEST_DID_HOST, testSigning } from '../helpers/app.js';

const signingModule = new URL('../../src/keys/signing.js', import.meta.url).href;

describe('a pending change unread for want of descriptors (issue 38)', () => {
  it('is reported as a shortage, not as a bad file; a file that is not JSON is still a bad file', () => {
    const { keyDir } = testSigning();
    writeFileSync(join(keyDir, 'pending.json'), 'not json', { mode: 0o600 });
    const bad = keyStates(keyDir, TEST_DID_HOST);
    assert.equal(bad.pending, undefined);
    assert.equal(bad.pendingUnread, undefined, 'a bad file is the file’s fault');

    const script = `
      import { openSync } from 'node:fs';
      const { keyStates } = await import(${JSON.stringify(signingModule)});
      const held = [];
      try { for (;;) held.push(openSync('/dev/null', 'r')); } catch (e) { if (e.code !== 'EMFILE') throw e; }
      const s = keyStates(${JSON.stringify(keyDir)}, ${JSON.stringify(TEST_DID_HOST)});
      process.stdout.write(JSON.stringify({ unread: s.pendingUnread ?? null, opened: held.length }));
    `;
    const r = spawnSync(
      'bash',
      ['-c', `ulimit -n 256 && exec "${process.execPath}" --input-type=module -e "$0"`, script],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { unread: string | null; opened: number };
    assert.ok(out.opened > 0);
    assert.match(out.unread ?? '', /EMFILE/);
  });
});
