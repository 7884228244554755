import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { after } from 'node:test';
import { repoRoot } from './repo.js';

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Starts a long-running command in its own process group; it is killed when the file ends. */
export function start(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output: () => string } {
  const child = spawn(cmd, args, {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  after(() => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
  });
  return { child, output: () => out };
}

/** Polls `url` until it answers (any status) or `ms` pass. */
export async function waitFor(url: string, ms: number, output: () => string): Promise<Response> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await fetch(url);
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${ms} ms; output:\n${output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * The compiled bin, run as a process, with the GSPC_* configuration chosen only by the test (the
 * caller's own GSPC_* variables are dropped). Most CLI tests run `main()` in-process instead
 * (./cli.ts); each CLI test file runs the bin at least once through this.
 */
export function runCli(args: string[], env: Record<string, string> = {}) {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GSPC_')));
  return spawnSync(process.execPath, ['bin/gspc.js', ...args], {
    cwd: repoRoot,
    env: { ...inherited, ...env },
    encoding: 'utf8',
  });
}
