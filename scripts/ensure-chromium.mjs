#!/usr/bin/env node
/**
 * The browser tests (issue 7) drive Debian's Chromium through playwright-core; they never
 * download a browser build. This step, run by `npm test`, makes sure /usr/bin/chromium exists:
 * found → nothing to do; missing and we may install Debian packages (root with apt-get) → installs
 * `chromium`; otherwise says loudly that the browser tests will be skipped and why. It never fails
 * the test command itself: a browser test without a browser skips with this reason.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.GSPC_CHROMIUM ?? '/usr/bin/chromium';
const say = (line) => process.stderr.write(`ensure-chromium: ${line}\n`);

if (existsSync(CHROMIUM)) process.exit(0);
if (process.env.GSPC_SKIP_BROWSER_INSTALL === '1') {
  say(`no browser at ${CHROMIUM} and GSPC_SKIP_BROWSER_INSTALL=1: the browser tests will be SKIPPED`);
  process.exit(0);
}
const root = typeof process.getuid === 'function' && process.getuid() === 0;
const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).stdout.trim();
if (!root || apt === '') {
  say(
    `no browser at ${CHROMIUM}, and this user cannot install Debian's chromium (${root ? 'no apt-get' : 'not root'}): the browser tests will be SKIPPED. Install it with: apt-get install -y chromium`,
  );
  process.exit(0);
}
say(`installing Debian's chromium (apt-get install -y chromium) for the browser tests; this happens once per machine`);
try {
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
} catch {
  try {
    execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (e) {
    say(`apt-get install chromium failed (${e.message}): the browser tests will be SKIPPED`);
    process.exit(0);
  }
}
say(
  existsSync(CHROMIUM)
    ? `installed ${CHROMIUM}`
    : `apt-get finished but ${CHROMIUM} is missing: the browser tests will be SKIPPED`,
);
