/**
 * The operator's traps of issue 16, each reproduced as a new operator meets it, with the clear
 * outcome it now has: a release served at another origin than it was signed for (refused, or the
 * demo published again for this origin, after which `gspc verify` of the served URL passes);
 * publishing without keys (refused, unless --allow-unsigned); a data directory that does not
 * exist or holds no release (an error, never the synthetic demo); a port in use (one line, no
 * stack); `gspc --version`. One-shot commands run in-process; the servers are the compiled bin.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { freePort, runCli, start, waitFor } from '../helpers/process.js';
import { repoRoot } from '../helpers/repo.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

/** A data directory with keys and the demo published for `origin`. */
async function published(origin: string): Promise<{ data: string; id: string }> {
  const data = tempDir();
  assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
  const r = await gspc(['publish', demoCorpus, '--data-dir', data, '--public-url', origin]);
  assert.equal(r.status, 0, r.stderr);
  return { data, id: /^published (r-[0-9a-f]{20})/.exec(r.stdout)![1]! };
}

describe('identity: a release is served only at the origin it was published for', () => {
  it('serve refuses a release signed for another origin, says which and how to fix it, and starts nothing', async () => {
    const { data, id } = await published('http://localhost:8080');
    const port = await freePort();
    const r = await gspc(['serve', '--data-dir', data, '--port', String(port)], { GSPC_LOG_LEVEL: 'silent' });
    assert.equal(r.status, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1, 'one line, no stack');
    assert.match(
      r.stderr,
      new RegExp(
        `^gspc: release ${id} was published for http://localhost:8080 \\(did:web:localhost%3A8080\\), but this service answers as http://localhost:${port} \\(did:web:localhost%3A${port}\\)`,
      ),
    );
    assert.match(r.stderr, new RegExp(`gspc publish <corpus> --public-url http://localhost:${port}`));
    await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`), 'nothing listens');
  });

  it('release.json records the origin; publishing for another origin is another release', async () => {
    const a = await published('http://localhost:8080');
    const b = await published('https://board.example');
    assert.notEqual(a.id, b.id);
    const descriptor = JSON.parse(readFileSync(join(b.data, 'releases', b.id, 'release.json'), 'utf8'));
    assert.equal(descriptor.public_url, 'https://board.example');
    const bad = await gspc(['publish', demoCorpus, '--data-dir', b.data, '--public-url', 'https://board.example/v1']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--public-url must be an origin \(scheme, host, port\), without a path/);
  });

  it('published for the origin it is served at: gspc verify of the served URL passes', {
    timeout: 60_000,
  }, async () => {
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const { data } = await published(origin);
    const { output } = start(process.execPath, ['bin/gspc.js', 'serve', '--data-dir', data, '--port', String(port)], {
      GSPC_LOG_LEVEL: 'warn',
    });
    await waitFor(`${origin}/healthz`, 30_000, output);
    const v = await gspc(['verify', origin]);
    assert.equal(v.status, 0, v.stdout);
    assert.match(v.stdout, /^VALID: every check passes, 36 of 36 cards valid$/m);
  });

  it('serve --demo publishes the demo again for this origin, so it verifies where it is served', {
    timeout: 60_000,
  }, async () => {
    const { data, id } = await published('http://localhost:8080');
    const port = await freePort();
    const origin = `http://localhost:${port}`;
    const { output } = start(
      process.execPath,
      ['bin/gspc.js', 'serve', '--demo', '--data-dir', data, '--port', String(port)],
      { GSPC_LOG_LEVEL: 'warn' },
    );
    const health = (await (await waitFor(`${origin}/healthz`, 30_000, output)).json()) as { release: string };
    assert.notEqual(health.release, id, 'a new release, for this origin');
    const v = await gspc(['verify', origin]);
    assert.equal(v.status, 0, v.stdout);
  });
});

describe('signed by default', () => {
  it('publish without keys exits 2, says to run gspc keygen with the same --data-dir, and writes nothing', async () => {
    const data = tempDir();
    const r = await gspc(['publish', demoCorpus, '--data-dir', data]);
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      new RegExp(
        `^gspc: no usable signing keys in ${join(data, 'keys')} \\(board-attestation-1, card-attestation-1, card-attestation-2: the key file is missing\\): create them with \`gspc keygen --data-dir ${data}\``,
      ),
    );
    assert.match(r.stderr, /or publish unsigned with --allow-unsigned; nothing was published/);
    assert.ok(!existsSync(join(data, 'releases')) && !existsSync(join(data, 'current')));
  });

  it('keygen --data-dir writes the keys where publish looks; --allow-unsigned publishes unsigned and says so', async () => {
    const data = tempDir();
    const unsigned = await gspc(['publish', demoCorpus, '--data-dir', data, '--allow-unsigned']);
    assert.equal(unsigned.status, 0, unsigned.stderr);
    assert.match(unsigned.stderr, /warning: key board-attestation-1 is unhealthy \(the key file is missing/);
    const keys = await gspc(['keygen', '--data-dir', data]);
    assert.equal(keys.status, 0);
    assert.match(
      keys.stdout,
      new RegExp(`^created board-attestation-1, card-attestation-1, card-attestation-2 in ${join(data, 'keys')}`),
    );
    const signed = await gspc(['publish', demoCorpus, '--data-dir', data]);
    assert.equal(signed.status, 0, signed.stderr);
    assert.equal(signed.stderr, '');
    // The demo's deliberate edge cases (UNTESTED rows, a refused bank) are what the board states:
    // counted on stdout, listed by gspc validate.
    assert.match(
      signed.stdout,
      new RegExp(`\\n\\d+ notices \\(the board states each; \`gspc validate ${demoCorpus}\` lists them\\)\\n`),
    );
  });

  it("publishing an imported board.json still holding the scaffold's EDIT ME warns, naming the fields", async () => {
    const into = join(tempDir(), 'corpus');
    const imported = await gspc([
      'import',
      'lm-eval',
      join(repoRoot, 'test/fixtures/lm-eval/sshleifer__tiny-gpt2'),
      '--into',
      into,
    ]);
    assert.equal(imported.status, 0, imported.stderr);
    const data = tempDir();
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    const r = await gspc(['publish', into, '--data-dir', data]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stderr,
      /^gspc: warning: published with board\.json issuer, doi, measured_on\.date: still the scaffold gspc import wrote \(EDIT ME\)/m,
    );
  });
});

describe('no silent demo', () => {
  it('a --data-dir that does not exist is an error naming it, not the demo', async () => {
    const missing = join(tempDir(), 'typo');
    const r = await gspc(['serve', '--data-dir', missing, '--port', String(await freePort())]);
    assert.equal(r.status, 2);
    assert.equal(
      r.stderr,
      `gspc: the data directory ${missing} does not exist: check --data-dir or GSPC_DATA_DIR, or serve the bundled demo with --demo\n`,
    );
    assert.ok(!existsSync(missing), 'nothing was created');
  });

  it('a data directory without a release (GSPC_DATA_DIR too) is an error that says how to publish', async () => {
    const data = tempDir();
    mkdirSync(join(data, 'keys'));
    const r = await gspc(['serve', '--port', String(await freePort())], { GSPC_DATA_DIR: data });
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      new RegExp(
        `^gspc: ${data} holds no published release: publish one \\(gspc publish <corpus> --data-dir ${data}\\)`,
      ),
    );
    assert.deepEqual(readdirSync(data), ['keys'], 'nothing was published');
  });
});

describe('the smaller traps', () => {
  it('a port in use is one line and exit 2, with no stack trace', async () => {
    const port = await freePort();
    const { data } = await published(`http://localhost:${port}`);
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(port, '127.0.0.1', () => r()));
    after(() => holder.close());
    const r = await gspc(['serve', '--data-dir', data, '--port', String(port)], {
      GSPC_LOG_LEVEL: 'silent',
      GSPC_RELOAD_INTERVAL_MS: '0',
    });
    assert.equal(r.status, 2);
    assert.equal(
      r.stderr,
      `gspc: cannot listen on 127.0.0.1:${port}: the address is already in use (another gspc serve?); stop it or choose another port with --port\n`,
    );
  });

  it('output into a pipe its reader closed (gspc import … | head): the import finishes, no stack trace, exit 0', async () => {
    const into = join(tempDir(), 'corpus');
    const child = spawn(
      process.execPath,
      [
        'bin/gspc.js',
        'import',
        'lm-eval',
        join(repoRoot, 'test/fixtures/lm-eval/sshleifer__tiny-gpt2'),
        '--into',
        into,
      ],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.destroy(); // the reader is gone before the first line: every write meets EPIPE
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const status = await new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    // Only the notices gspc validate would print of the corpus: no stack trace, no EPIPE.
    assert.match(stderr, /^2 notices: it would publish/);
    assert.doesNotMatch(stderr, /EPIPE|Error|\n\s+at /);
    assert.equal(status, 0);
    assert.equal(
      readFileSync(join(into, 'peritem', 'copa.jsonl'), 'utf8')
        .trimEnd()
        .split('\n').length,
      20,
    );
  });

  it('gspc --version prints the package version (the compiled bin)', () => {
    const r = runCli(['--version']);
    assert.equal(r.status, 0, r.stderr);
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    assert.equal(r.stdout, `${version}\n`);
  });
});
