/**
 * The Go checker of the log's tiles (test/go/tlogcheck: Go's own golang.org/x/mod/sumdb/tlog and
 * note, issue 42), built with Debian's `golang-go` against Debian's `golang-golang-x-mod-dev`
 * source tree, offline: GOPATH mode (GO111MODULE=off) with GOPATH=/usr/share/gocode, so nothing
 * is fetched. Missing packages are installed when this runs as root with apt-get (as
 * scripts/ensure-debian.mjs does for `npm test`); otherwise the reason is returned for the test's
 * `skip`, and said on stderr.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './repo.js';
import { tempDir } from './tmp.js';

const GO = process.env.GSPC_GO ?? '/usr/bin/go';
const GOPATH = '/usr/share/gocode';
const TLOG = join(GOPATH, 'src', 'golang.org', 'x', 'mod', 'sumdb', 'tlog', 'tile.go');
const PACKAGES = ['golang-go', 'golang-golang-x-mod-dev'];

const present = () => existsSync(GO) && existsSync(TLOG);

function install(): string | undefined {
  const root = process.getuid?.() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).stdout.trim();
  if (!root || apt === '')
    return `${root ? 'no apt-get' : 'not root'}, so Debian's ${PACKAGES.join(' and ')} cannot be installed here (apt-get install -y ${PACKAGES.join(' ')})`;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...PACKAGES], { env, encoding: 'utf8' });
  let r = run();
  if (r.status !== 0) {
    spawnSync('apt-get', ['update'], { env, encoding: 'utf8' });
    r = run();
  }
  return r.status === 0 ? undefined : `apt-get install -y ${PACKAGES.join(' ')} failed: ${r.stderr.trim().slice(-400)}`;
}

/** The built checker's path, or why there is none. */
export function goTlogCheck(): { ok: true; bin: string } | { ok: false; reason: string } {
  if (!present()) {
    const why = process.env.GSPC_SKIP_GO_INSTALL === '1' ? 'GSPC_SKIP_GO_INSTALL=1' : install();
    if (why !== undefined || !present()) {
      const reason = `the Go tlog checker is SKIPPED: no ${existsSync(GO) ? TLOG : GO} and ${why ?? 'apt-get did not install it'}`;
      process.stderr.write(`${reason}\n`);
      return { ok: false, reason };
    }
  }
  const out = join(repoRoot, 'build', 'go');
  mkdirSync(out, { recursive: true });
  // Each test file its own binary (test files run in parallel; Go's build cache is shared safely).
  const bin = join(tempDir('gspc-tlogcheck-'), 'tlogcheck');
  const r = spawnSync(GO, ['build', '-o', bin, './test/go/tlogcheck/'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, GO111MODULE: 'off', GOPATH, GOFLAGS: '', GOCACHE: join(out, 'cache'), GOPROXY: 'off' },
  });
  // A build failure is a failure of the test, not a reason to skip it.
  if (r.status !== 0) throw new Error(`go build of test/go/tlogcheck failed:\n${r.stderr}`);
  return { ok: true, bin };
}

/**
 * Runs the checker on a log prefix (a URL or a directory). Asynchronous: the log may be served
 * by this very process, which must keep answering while the checker reads.
 */
export function runTlogCheck(
  bin: string,
  prefix: string,
  vkey?: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(bin, [...(vkey === undefined ? [] : ['-vkey', vkey]), prefix], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
