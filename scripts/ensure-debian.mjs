#!/usr/bin/env node
/**
 * The Debian packages the tests drive, never downloaded builds: `chromium` for the browser tests
 * (issue 7, through playwright-core), `nginx` for the static-mirror and replica tests (issue 17,
 * as the load balancer and the mirror's server) and `softhsm2` for the PKCS#11 signer (issue 30), and `golang-go` with `golang-golang-x-mod-dev` for the Go checker of the log's tiles (issue 42). Run by `npm test` before anything else. For each:
 * found → nothing to do; missing and we may install Debian packages (root with apt-get) →
 * installs it (once per machine); otherwise says loudly that the tests needing it will be skipped
 * and why. It never fails the test command itself: a test without its package skips with this
 * reason. GSPC_SKIP_BROWSER_INSTALL=1 / GSPC_SKIP_NGINX_INSTALL=1 / GSPC_SKIP_SOFTHSM_INSTALL=1 / GSPC_SKIP_GO_INSTALL=1 install nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PACKAGES = [
  {
    name: 'chromium',
    binary: process.env.GSPC_CHROMIUM ?? '/usr/bin/chromium',
    skip: process.env.GSPC_SKIP_BROWSER_INSTALL === '1' ? 'GSPC_SKIP_BROWSER_INSTALL=1' : undefined,
    tests: 'the browser tests',
  },
  {
    name: 'nginx',
    binary: process.env.GSPC_NGINX ?? '/usr/sbin/nginx',
    skip: process.env.GSPC_SKIP_NGINX_INSTALL === '1' ? 'GSPC_SKIP_NGINX_INSTALL=1' : undefined,
    tests: 'the static-mirror and replica tests',
  },
  {
    name: 'softhsm2',
    binary: process.env.GSPC_SOFTHSM_MODULE ?? '/usr/lib/softhsm/libsofthsm2.so',
    skip: process.env.GSPC_SKIP_SOFTHSM_INSTALL === '1' ? 'GSPC_SKIP_SOFTHSM_INSTALL=1' : undefined,
    tests: 'the PKCS#11 signer tests (issue 30: keys on a SoftHSM2 token)',
  },
  {
    // Go and Go's own golang.org/x/mod (sumdb/tlog and note) for the log-tiles checker (issue 42).
    name: 'golang-go',
    binary: process.env.GSPC_GO ?? '/usr/bin/go',
    skip: process.env.GSPC_SKIP_GO_INSTALL === '1' ? 'GSPC_SKIP_GO_INSTALL=1' : undefined,
    tests: 'the Go tlog checker of the log tiles (test/go/tlogcheck.e2e.test.ts)',
  },
  {
    name: 'golang-golang-x-mod-dev',
    binary: '/usr/share/gocode/src/golang.org/x/mod/sumdb/tlog/tile.go',
    skip: process.env.GSPC_SKIP_GO_INSTALL === '1' ? 'GSPC_SKIP_GO_INSTALL=1' : undefined,
    tests: 'the Go tlog checker of the log tiles (test/go/tlogcheck.e2e.test.ts)',
  },
  {
    name: 'wrk',
    binary: process.env.GSPC_WRK ?? '/usr/bin/wrk',
    skip: process.env.GSPC_SKIP_WRK_INSTALL === '1' ? 'GSPC_SKIP_WRK_INSTALL=1' : undefined,
    tests: 'the board speed benchmark (npm run bench, a load generator that saturates the server)',
  },
];

const say = (line) => process.stderr.write(`ensure-debian: ${line}\n`);
const root = typeof process.getuid === 'function' && process.getuid() === 0;
const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).stdout.trim();
const aptInstall = (name) =>
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', name], {
    stdio: ['ignore', 'ignore', 'inherit'],
    // The nginx package would start a system nginx on port 80; the tests start their own.
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' },
  });

let updated = false;
for (const p of PACKAGES) {
  if (existsSync(p.binary)) continue;
  if (p.skip !== undefined) {
    say(`no ${p.name} at ${p.binary} and ${p.skip}: ${p.tests} will be SKIPPED`);
    continue;
  }
  if (!root || apt === '') {
    say(
      `no ${p.name} at ${p.binary}, and this user cannot install Debian's ${p.name} (${root ? 'no apt-get' : 'not root'}): ${p.tests} will be SKIPPED. Install it with: apt-get install -y ${p.name}`,
    );
    continue;
  }
  say(`installing Debian's ${p.name} (apt-get install -y ${p.name}) for ${p.tests}; this happens once per machine`);
  try {
    try {
      aptInstall(p.name);
    } catch (e) {
      if (updated) throw e;
      execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'] });
      updated = true;
      aptInstall(p.name);
    }
  } catch (e) {
    say(`apt-get install ${p.name} failed (${e.message}): ${p.tests} will be SKIPPED`);
    continue;
  }
  say(
    existsSync(p.binary)
      ? `installed ${p.binary}`
      : `apt-get finished but ${p.binary} is missing: ${p.tests} will be SKIPPED`,
  );
}
