/**
 * `kill -9` of `gspc publish` (the compiled bin, publishing an imported lm-eval corpus) at 50
 * random moments (issue 16): whenever it
 * lands (starting, reading the corpus, writing files, renaming, verifying, switching `current`),
 * the data directory's current release, if any, passes the checks of `gspc verify`, and the next
 * publish takes over the killed one's lock and removes what it left. The moments come from a
 * seeded generator (the seed is in the test's name), so a failure can be replayed.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { currentReleaseDir } from '../../src/release/data-dir.js';
import { dirSource } from '../../src/verify/release-source.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import { gspc } from '../helpers/cli.js';
import { fixturePath, repoRoot } from '../helpers/repo.js';
import { prng } from '../../demo/generate.js';
import { tempDir } from '../helpers/tmp.js';

const KILLS = 50;
const SEED = 20261125;
const COPA_RUNS = ['sshleifer__tiny-gpt2', 'hf-internal-testing__tiny-random-gpt2'];

/** Runs the bin's publish and kills it with SIGKILL after `ms` (or lets it finish first). */
function publishKilledAfter(
  corpus: string,
  data: string,
  ms: number,
): Promise<{ end: 'killed' | number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/gspc.js', 'publish', corpus, '--data-dir', data], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ end: signal === 'SIGKILL' ? 'killed' : (code ?? -1), stderr });
    });
  });
}

describe('kill -9 of gspc publish', () => {
  it(`at ${KILLS} random moments (seed ${SEED}) never leaves a current release that fails gspc verify`, {
    timeout: 240_000,
  }, async () => {
    const data = tempDir();
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    // Two corpora whose cards differ, published in turn, so that most publishes write a new
    // release: an operator's own, imported from the real lm-eval COPA runs (small, so that 50
    // whole publishes stay affordable: the moments that matter are the same, fewer files), and
    // the same with one row's label changed.
    const A = join(tempDir(), 'A');
    const imported = await gspc(['import', 'lm-eval', ...COPA_RUNS.map((r) => fixturePath('lm-eval', r)), '--into', A]);
    assert.equal(imported.status, 0, imported.stderr);
    // The scaffold filled in, as an operator does before publishing (publish warns otherwise).
    const boardJson = join(A, 'board.json');
    const board = JSON.parse(readFileSync(boardJson, 'utf8')) as {
      issuer: string;
      doi: string;
      measured_on: { date: string };
    };
    board.issuer = 'gspc-board tests';
    board.doi = 'none: test corpus';
    board.measured_on.date = 'lm-eval 0.4 COPA runs, test/fixtures/lm-eval';
    writeFileSync(boardJson, `${JSON.stringify(board, null, 2)}\n`);
    const B = join(tempDir(), 'B');
    cpSync(A, B, { recursive: true });
    const rows = join(B, 'peritem', 'copa.jsonl');
    const lines = readFileSync(rows, 'utf8').split('\n');
    const first = JSON.parse(lines[0]!) as { label: string | null; gold: string };
    first.label = first.label === first.gold ? (first.gold === '0' ? '1' : '0') : first.gold;
    lines[0] = JSON.stringify(first);
    writeFileSync(rows, lines.join('\n'));

    // The moments span one whole publish (start, read, write, verify, switch) as long as it takes
    // on this machine now: the first publish, run to its end, is the measure.
    const t0 = performance.now();
    assert.deepEqual(await publishKilledAfter(B, data, 60_000), { end: 0, stderr: '' });
    const windowMs = Math.ceil(performance.now() - t0);
    const next = prng(SEED);
    const verified = new Set<string>();
    const outcomes = { killed: 0, finished: 0, refused: 0 };
    for (let i = 0; i < KILLS; i++) {
      const ms = Math.floor(next() * windowMs);
      const { end: r, stderr } = await publishKilledAfter(i % 2 === 0 ? A : B, data, ms);
      if (r === 'killed') outcomes.killed++;
      else if (r === 0) outcomes.finished++;
      else outcomes.refused++;
      assert.ok(r === 'killed' || r === 0, `publish ${i} (to be killed at ${ms} ms) exited ${r}: ${stderr}`);
      const current = currentReleaseDir(data);
      if (current === undefined || verified.has(current)) continue;
      const report = await verifyRelease(dirSource(current));
      const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);
      assert.ok(report.ok, `after publish ${i} killed at ${ms} ms, the current release fails: ${failed.join(' | ')}`);
      verified.add(current);
    }
    assert.ok(
      outcomes.killed >= KILLS / 2,
      `most publishes were killed (${JSON.stringify(outcomes)}, window ${windowMs} ms)`,
    );

    // The next publish takes over whatever the last kill left, and leaves nothing behind.
    const last = await gspc(['publish', B, '--data-dir', data]);
    assert.equal(last.status, 0, last.stderr);
    assert.ok(!existsSync(join(data, 'publish.lock')));
    assert.deepEqual(
      readdirSync(join(data, 'releases')).filter((n) => n.startsWith('.')),
      [],
    );
    assert.ok((await verifyRelease(dirSource(currentReleaseDir(data)!))).ok);
  });
});
