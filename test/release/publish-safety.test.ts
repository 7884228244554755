/**
 * Publishing that cannot go wrong silently (issue 16), through `gspc publish` in-process: any
 * sequence of publishes leaves a current release that `gspc verify` passes, with a card log that
 * only grows (A, B, A′ with A's cards again; A, A); two publishes at once (one is refused with
 * who holds the lock); what a killed publish leaves (its lock, its temporary directory) is taken
 * over and removed by the next; and a release that fails the checks of `gspc verify` is never
 * made current.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { currentReleaseDir } from '../../src/release/data-dir.js';
import { GspcError } from '../../src/core/errors.js';
import { signingContext } from '../../src/keys/signing.js';
import { dirSource } from '../../src/verify/release-source.js';
import { publishVerified } from '../../src/verify/verified-publish.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import { gspc } from '../helpers/cli.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';
import { corpora } from './corpora.js';

async function keyed(): Promise<string> {
  const data = tempDir();
  assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
  return data;
}

/** Publishes and checks what it printed; returns the new current release directory. */
async function publish(corpus: string, data: string): Promise<string> {
  const r = await gspc(['publish', corpus, '--data-dir', data]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^verified: 19 checks and 36 cards pass, as gspc verify checks them$/m);
  return currentReleaseDir(data)!;
}

async function assertVerifies(dir: string): Promise<void> {
  const report = await verifyRelease(dirSource(dir));
  const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);
  assert.ok(report.ok, `gspc verify of ${dir} fails: ${failed.join(' | ')}`);
}

const treeSize = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'evidence', 'log-history.json'), 'utf8')) as { tree_size: number }).tree_size;

describe('publish sequences', () => {
  it('A, B, A′ (A’s cards again), B, A: every release verifies and the log only grows', async () => {
    const { A, B, A2 } = corpora();
    const data = await keyed();
    let size = 0;
    for (const corpus of [A, B, A2, B, A]) {
      const dir = await publish(corpus, data);
      await assertVerifies(dir);
      assert.ok(treeSize(dir) >= size, 'the card log never shrinks');
      size = treeSize(dir);
    }
    const supersessions = JSON.parse(
      readFileSync(join(currentReleaseDir(data)!, 'evidence', 'supersessions.json'), 'utf8'),
    ) as { entries: unknown[] };
    assert.ok(supersessions.entries.length >= 4, 'every change of a cell’s card is in the ledger');
  });

  it('A, A: the second says unchanged and the release still verifies', async () => {
    const data = await keyed();
    const first = await publish(demoCorpus, data);
    const again = await gspc(['publish', demoCorpus, '--data-dir', data]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^unchanged r-/);
    assert.equal(currentReleaseDir(data), first);
    await assertVerifies(first);
  });
});

describe('one publisher at a time', () => {
  it('two publishes at once: one is refused, naming who holds the lock; the other is current and verifies', async () => {
    const { A, B } = corpora();
    const data = await keyed();
    const [a, b] = await Promise.all([
      gspc(['publish', A, '--data-dir', data]),
      gspc(['publish', B, '--data-dir', data]),
    ]);
    const refused = [a, b].filter((r) => r.status !== 0);
    assert.equal(refused.length, 1, `${a.stderr}${b.stderr}`);
    assert.equal(refused[0]!.status, 2);
    assert.match(
      refused[0]!.stderr,
      new RegExp(
        `^gspc: another gspc publish \\(pid ${process.pid} on ${hostname()}, since [0-9T:.Z-]+\\) is publishing into ${data}; nothing was published`,
      ),
    );
    assert.ok(!existsSync(join(data, 'publish.lock')), 'the lock is released');
    await assertVerifies(currentReleaseDir(data)!);
  });

  it('a killed publisher’s lock and temporary directory are taken over and removed by the next publish', async () => {
    const data = await keyed();
    // A pid that existed and is gone: a finished child's.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const pid = Number(dead.stdout);
    mkdirSync(join(data, 'publish.lock'));
    writeFileSync(
      join(data, 'publish.lock', 'owner.json'),
      JSON.stringify({ pid, host: hostname(), since: '2026-11-25T00:00:00.000Z' }),
    );
    mkdirSync(join(data, 'releases', `.tmp-${pid}-0123456789ab`, 'corpus'), { recursive: true });
    await assertVerifies(await publish(demoCorpus, data));
    assert.deepEqual(
      readdirSync(join(data, 'releases')).filter((n) => n.startsWith('.')),
      [],
      'no temporary directory is left',
    );
    assert.deepEqual(
      readdirSync(data).filter((n) => n.startsWith('publish.lock')),
      [],
      'no lock is left',
    );
  });

  it('a lock without its owner file (an older gspc killed before writing it) is taken over', async () => {
    const data = await keyed();
    mkdirSync(join(data, 'publish.lock'));
    await assertVerifies(await publish(demoCorpus, data));
    assert.deepEqual(
      readdirSync(data).filter((n) => n.startsWith('publish.lock')),
      [],
    );
  });

  it('a lock held by a live process is never taken over', async () => {
    const data = await keyed();
    mkdirSync(join(data, 'publish.lock'));
    writeFileSync(
      join(data, 'publish.lock', 'owner.json'),
      JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-11-25T00:00:00.000Z' }),
    );
    const r = await gspc(['publish', demoCorpus, '--data-dir', data]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /is publishing into .*; nothing was published\. Wait for it to finish/);
    assert.equal(currentReleaseDir(data), undefined);
  });
});

describe('verify before current', () => {
  it('a damaged release to continue is refused before anything is written: it is read through the hash-checked loader', async () => {
    const { A, B } = corpora();
    const data = await keyed();
    const first = await publish(A, data);
    // The card log this publish would extend, edited on disk (a damaged disk, a hand edit).
    const entriesFile = join(first, 'evidence', 'log-entries.json');
    const entries = JSON.parse(readFileSync(entriesFile, 'utf8')) as { entries: string[] };
    entries.entries.reverse();
    writeFileSync(entriesFile, JSON.stringify(entries));
    const before = readdirSync(join(data, 'releases')).sort();
    const r = await gspc(['publish', B, '--data-dir', data]);
    assert.equal(r.status, 2, r.stdout);
    assert.match(
      r.stderr,
      new RegExp(
        `^gspc: the release this publish continues \\(${first}, the longest card log for did:web:localhost%3A8080\\) does not load: .*evidence/log-entries\\.json.*; nothing was published`,
      ),
    );
    assert.equal(currentReleaseDir(data), first);
    assert.deepEqual(readdirSync(join(data, 'releases')).sort(), before);
  });

  it('a release that fails the checks of gspc verify is removed and the previous release stays current', async () => {
    const { A, B } = corpora();
    const data = await keyed();
    const first = await publish(A, data);
    const before = readdirSync(join(data, 'releases')).sort();
    const signing = signingContext(join(data, 'keys'), 'localhost:8080');
    // A fault between writing and checking: one card of the new release's bundle raised by one
    // correct answer, as a bug or a disk could do. The checks of gspc verify must catch it.
    const fault = () => {
      const fresh = readdirSync(join(data, 'releases')).find((n) => !before.includes(n))!;
      const bundle = join(data, 'releases', fresh, 'evidence', 'cards-bundle.json');
      const text = readFileSync(bundle, 'utf8');
      const raised = text.replace(/"correct": ?(\d+)/, (_m, n) => `"correct": ${Number(n) + 1}`);
      assert.notEqual(raised, text, 'the fault changed a card');
      writeFileSync(bundle, raised);
    };
    await assert.rejects(
      publishVerified(B, data, signing.inputs, { onStep: (step) => step === 'release-renamed' && fault() }),
      (e: unknown) =>
        e instanceof GspcError &&
        e.code === 'release_invalid' &&
        /^the release just written \(r-[0-9a-f]{20}\) fails the checks of gspc verify, so it was not made current and the previous release stays served: /.test(
          e.message,
        ),
    );
    assert.equal(currentReleaseDir(data), first);
    assert.deepEqual(readdirSync(join(data, 'releases')).sort(), before, 'the failed release was removed');
  });
});
