/**
 * The command line as a user runs it: the README's start command, `gspc publish` of an
 * operator's own corpus, `gspc serve --release`, and the errors an operator sees.
 * The servers run the compiled bin (the test command builds it first); the one-shot commands run
 * in-process (test/helpers/cli.ts), the same code without a process start each.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers/repo.js';
import { gspc } from '../helpers/cli.js';
import { freePort, start, waitFor } from '../helpers/process.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js'))) {
  throw new Error('dist/ is missing: the CLI tests run the compiled bin; run `npm run build` (npm test does it first)');
}

describe('gspc command line', () => {
  it('README start command (`npm start`) serves the demo board on $PORT', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const { output } = start('npm', ['start'], { PORT: String(port), GSPC_DATA_DIR: tempDir() });
    const r = await waitFor(`http://127.0.0.1:${port}/api/gspc`, 45_000, output);
    assert.equal(r.status, 200);
    const board = (await r.json()) as { schema: string; axes: unknown[]; issuer: string };
    assert.equal(board.schema, 'svc.gspc-axes/0.5');
    assert.equal(board.axes.length, 22);
    assert.match(board.issuer, /SYNTHETIC/);
  });

  it('publish an own corpus, then serve that release with --release and --port', { timeout: 60_000 }, async () => {
    const corpus = demoCopy();
    writeFileSync(join(corpus, 'lane.json'), '[]\n');
    const data = tempDir();
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    const pub = await gspc(['publish', corpus, '--data-dir', data, '--public-url', origin]);
    assert.equal(pub.status, 0, pub.stderr);
    const [status, id, dir] = [
      pub.stdout.split(' ')[0],
      pub.stdout.split('\n')[0]!.split(' ')[1]!,
      pub.stdout.split('\n')[1]!,
    ];
    assert.equal(status, 'published');
    assert.match(id, /^r-[0-9a-f]{20}$/);
    assert.ok(existsSync(join(dir, 'release.json')));
    const again = await gspc(['publish', corpus, '--data-dir', data, '--public-url', origin]);
    assert.match(again.stdout, new RegExp(`^unchanged ${id}`));

    const { output } = start(process.execPath, ['bin/gspc.js', 'serve', '--release', dir, '--port', String(port)], {
      GSPC_DATA_DIR: data,
    });
    const r = await waitFor(`http://127.0.0.1:${port}/api/gspc`, 30_000, output);
    const board = (await r.json()) as { measured_in_lane: unknown[] };
    assert.deepEqual(board.measured_in_lane, []);
    const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { release: string };
    assert.equal(health.release, id);
  });

  it('serve follows the data directory: a new publish is served without a restart, a bad one is not', {
    timeout: 60_000,
  }, async () => {
    const data = tempDir();
    const port = await freePort();
    const { output } = start(process.execPath, ['bin/gspc.js', 'serve', '--demo', '--port', String(port)], {
      GSPC_DATA_DIR: data,
      GSPC_RELOAD_INTERVAL_MS: '100',
    });
    const url = `http://127.0.0.1:${port}/api/gspc`;
    const before = (await (await waitFor(url, 30_000, output)).json()) as { measured_in_lane: unknown[] };
    assert.equal(before.measured_in_lane.length, 2, 'the demo was published and served');
    const corpus = demoCopy();
    writeFileSync(join(corpus, 'lane.json'), '[]\n');
    // Published for the origin the service answers as (the keys are the ones serve --demo made).
    const pub = await gspc(['publish', corpus, '--data-dir', data, '--public-url', `http://localhost:${port}`]);
    assert.equal(pub.status, 0, pub.stderr);
    const deadline = Date.now() + 20_000;
    let lane = 2;
    while (lane !== 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      lane = ((await (await fetch(url)).json()) as { measured_in_lane: unknown[] }).measured_in_lane.length;
    }
    assert.equal(lane, 0, `the new release was not served; output:\n${output()}`);
    // A release published for another origin becomes current in the data directory, but this
    // service does not serve it: its signatures would not verify here.
    const served = ((await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { release: string }).release;
    writeFileSync(join(corpus, 'lane.json'), readFileSync(join(repoRoot, 'demo', 'corpus', 'lane.json')));
    const elsewhere = await gspc(['publish', corpus, '--data-dir', data, '--public-url', 'https://board.example']);
    assert.equal(elsewhere.status, 0, elsewhere.stderr);
    const refusedAt = Date.now() + 20_000;
    while (!output().includes('release_wrong_origin') && !output().includes('was published for https://board.example'))
      if (Date.now() > refusedAt) break;
      else await new Promise((r) => setTimeout(r, 100));
    assert.match(output(), /was published for https:\/\/board\.example/);
    const still = ((await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { release: string }).release;
    assert.equal(still, served, 'the previous release stays served');
  });

  it('an invalid corpus exits 2 and prints every problem as file:line field: reason', async () => {
    const corpus = demoCopy();
    writeFileSync(
      join(corpus, 'peritem', 'safety.jsonl'),
      '{"item":"a","model":"m","gold":"refuse","label":"refuse"}\n{"item":"b"}\n',
    );
    const data = tempDir();
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    const r = await gspc(['publish', corpus, '--data-dir', data]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /corpus has \d+ problems?; nothing was loaded/);
    assert.match(r.stderr, /peritem\/safety\.jsonl:2 model: must be a model id/);
  });

  it('validate checks a corpus without publishing; bad flags and config fail clearly', async () => {
    const ok = await gspc(['validate', join(repoRoot, 'demo', 'corpus')]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^ok: 22 axes, \d+ per-item rows/);
    const badPort = await gspc(['serve', '--port', 'eighty']);
    assert.notEqual(badPort.status, 0);
    assert.match(badPort.stderr, /must be a port number/);
    const badEnv = await gspc(['serve'], { GSPC_LOG_LEVEL: 'loud', GSPC_DATA_DIR: tempDir() });
    assert.equal(badEnv.status, 2);
    assert.match(badEnv.stderr, /invalid configuration: GSPC_LOG_LEVEL/);
  });
});
