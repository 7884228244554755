/**
 * A full disk (issue 28), on real small tmpfs mounts (the test mounts them as root, or is skipped
 * with the reason). `gspc publish` and `gspc import` onto a full disk print one line naming the
 * file and what was left intact, not node's stack trace, and leave the current release (the
 * corpus) as it was. The SQLite ledger filling up during payments: a reservation that cannot be
 * written is `ledger_unavailable` (HTTP 503) before any settlement is asked for, so nothing is
 * charged; a settlement the chain made but the full ledger cannot record delivers the artefact
 * anyway and leaves the payment RESERVED, for `gspc reconcile` to settle from the chain.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { GspcError } from '../../src/core/errors.js';
import type { Facilitator } from '../../src/payments/facilitator.js';
import { payForArtefact } from '../../src/payments/paid-request.js';
import { currentReleaseDir } from '../../src/release/data-dir.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { gspc } from '../helpers/cli.js';
import { body, rail, request, TX } from '../payments/paid-request-fixture.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

/** Mounts a tmpfs of `size` at a new directory, or says why it cannot. */
function tmpfs(size: string): string | { skip: string } {
  if (process.getuid?.() !== 0) return { skip: 'mounting a small tmpfs needs root, and this is not root' };
  // Not tempDir(): its removal would run before the unmount.
  const dir = mkdtempSync(join(tmpdir(), 'gspc-full-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `mount -t tmpfs failed: ${(r.stderr || r.error?.message || '').trim()}` };
  }
  after(() => {
    spawnSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Fills the file system of `dir` until a write fails; returns the filler's path (to free it). */
function fill(dir: string): string {
  const path = join(dir, `filler-${randomBytes(4).toString('hex')}`);
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (e) {
    assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    closeSync(fd);
  }
  return path;
}

const probe = tmpfs('64k');
const skip = typeof probe === 'string' ? false : probe.skip;
if (skip) process.stderr.write(`full-disk: SKIPPED: ${skip}\n`);

describe('a full disk', { skip }, () => {
  it('gspc publish: one line naming the file, the current release unchanged, nothing left behind', async () => {
    const disk = tmpfs('1800k') as string;
    const keys = join(tempDir(), 'keys');
    assert.equal((await gspc(['keygen', '--key-dir', keys])).status, 0);
    const data = join(disk, 'data');
    const first = await gspc(['publish', demoCorpus, '--data-dir', data, '--key-dir', keys]);
    assert.equal(first.status, 0, first.stderr);
    const current = currentReleaseDir(data);
    const corpus = join(tempDir(), 'corpus');
    cpSync(demoCorpus, corpus, { recursive: true });
    const board = join(corpus, 'board.json');
    writeFileSync(board, readFileSync(board, 'utf8').replace('"2026-11-01T00:00:00Z"', '"2026-11-02T00:00:00Z"'));
    const second = await gspc(['publish', corpus, '--data-dir', data, '--key-dir', keys]);
    assert.equal(second.status, 2);
    assert.equal(second.stderr.trim().split('\n').length, 1, `one line: ${second.stderr}`);
    assert.match(
      second.stderr,
      new RegExp(
        `^gspc: cannot write ${data}/releases/\\.tmp-[^:]+: no space left on the device \\(ENOSPC\\); the current release is unchanged`,
      ),
    );
    assert.equal(currentReleaseDir(data), current);
    assert.deepEqual(
      readdirSync(join(data, 'releases')).filter((f) => f.startsWith('.tmp')),
      [],
      'the half-written release was removed',
    );
  });

  it('gspc import: one line naming the file, the corpus unchanged', async () => {
    const disk = tmpfs('256k') as string;
    const into = join(disk, 'corpus');
    mkdirSync(into);
    writeFileSync(join(into, 'keep.txt'), 'mine\n');
    fill(disk);
    const r = await gspc([
      'import',
      'lm-eval',
      join('test', 'fixtures', 'lm-eval', 'sshleifer__tiny-gpt2'),
      '--into',
      into,
    ]);
    assert.equal(r.status, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^gspc: cannot write .*: no space left on the device \(ENOSPC\); the corpus is unchanged/);
    assert.deepEqual(readdirSync(into), ['keep.txt']);
  });
});

describe('the SQLite ledger filling up during payments', { skip }, () => {
  it('a reservation the full disk cannot hold is ledger_unavailable (503) and nothing is settled; a settlement it cannot record is delivered, left RESERVED', async () => {
    const disk = tmpfs('2m') as string;
    const path = join(disk, 'ledger.sqlite');
    const ledger = await openLedger({ sqlitePath: path });
    after(() => ledger.close());
    // Every later write must grow the log: fold it into the database and truncate it first.
    const side = new Database(path);
    side.pragma('wal_checkpoint(TRUNCATE)');
    side.close();
    let settles = 0;
    let fillDuringSettle = false;
    let filler: string | undefined;
    const facilitator: Facilitator = {
      verify: async () => ({ kind: 'valid', payer: undefined }),
      settle: async () => {
        settles++;
        if (fillDuringSettle) filler = fill(disk);
        return { kind: 'settled' as const, transaction: TX, payer: undefined, network: rail.network };
      },
    };
    const deps = {
      ledger,
      facilitator,
      rail,
      boardKey: { healthy: false as const, kid: 'did:web:x#board-attestation-1', reason: 'test key absent' },
      now: () => new Date(),
      inFlightWaitMs: 200,
    };

    const full = fill(disk);
    await assert.rejects(
      payForArtefact(request(), deps),
      (e: unknown) => e instanceof GspcError && e.code === 'ledger_unavailable' && /the disk is full/.test(e.message),
    );
    assert.equal(settles, 0, 'nothing was charged');

    rmSync(full);
    fillDuringSettle = true;
    const req = request();
    const out = await payForArtefact(req, deps);
    assert.equal(settles, 1);
    assert.equal(out.kind, 'delivered', 'charged, so the artefact is delivered');
    assert.ok(out.kind === 'delivered' && out.body.equals(body) && out.record === null);
    assert.equal(out.kind === 'delivered' && out.settle.transaction, TX);
    rmSync(filler!);
    const key = { payer: req.payment.payer, nonce: req.payment.nonce };
    assert.equal((await ledger.get(key))?.state, 'RESERVED', 'reconcile settles it from the chain');
  });
});
