/**
 * Spawns anvil (from the npm package @foundry-rs/anvil) on 127.0.0.1 and waits until its RPC answers.
 *
 * On POSIX anvil runs under a small `sh` watchdog whose stdin is a pipe held only by this process:
 * when the pipe reaches EOF (stop(), normal exit, a crash or even SIGKILL of Node, since the OS closes
 * the pipe) the watchdog kills anvil. So no anvil is left behind without relying on exit handlers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';

export interface AnvilProcess {
  readonly rpcUrl: string;
  readonly port: number;
  stop(): Promise<void>;
}

const ARCH: Partial<Record<string, string>> = { x64: 'amd64', arm64: 'arm64' };

/**
 * Path of the anvil binary in its platform package, or a clear Error. package.json pins
 * `@foundry-rs/anvil-linux-amd64` as an optional dependency (the wrapper `@foundry-rs/anvil`
 * lists every platform, and `npm ci` then needs them all in the lock file, which a registry
 * mirror carrying only one platform cannot give); other platforms install their own package.
 */
export function anvilBinaryPath(): string {
  const pkg = `@foundry-rs/anvil-${process.platform}-${ARCH[process.arch] ?? process.arch}`;
  const file = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  try {
    return createRequire(import.meta.url).resolve(`${pkg}/bin/${file}`);
  } catch {
    throw new Error(
      `anvil binary not found (looked for ${pkg}/bin/${file}). Install the package for this platform ` +
        `(npm install --no-save ${pkg}@1.7.1) or the wrapper @foundry-rs/anvil, which pulls it.`,
    );
  }
}

/** A port that was free a moment ago on 127.0.0.1 (anvil needs it on its command line). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

// $0 is the anvil path, "$@" its arguments. fd 3 keeps our stdin pipe: a background list gets
// /dev/null as stdin in a non-interactive shell, so the reader reads fd 3 explicitly.
const WATCHDOG = 'exec 3<&0; "$0" "$@" </dev/null 3<&- & a=$!; { read -r _ <&3; kill $a 2>/dev/null; } & wait $a';

function spawnWatched(binary: string, args: string[]): ChildProcess {
  if (process.platform === 'win32') {
    // No sh on Windows: spawn directly and kill on exit (a hard kill of Node can orphan it there).
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const kill = () => child.kill();
    process.once('exit', kill);
    child.once('exit', () => process.off('exit', kill));
    return child;
  }
  return spawn('/bin/sh', ['-c', WATCHDOG, binary, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
}

async function rpcAnswers(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return res.ok;
  } catch {
    return false;
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return async () => {
    if (child.stdin)
      child.stdin.end(); // EOF: the watchdog kills anvil, then sh exits
    else child.kill();
    await exited;
  };
}

async function startOnce(
  binary: string,
  chainId: number,
  timeoutMs: number,
): Promise<AnvilProcess | { failed: string }> {
  const port = await freePort();
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'];
  const child = spawnWatched(binary, args);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const stop = stopper(child);
  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (!exited && Date.now() < deadline) {
    if (await rpcAnswers(rpcUrl)) return { rpcUrl, port, stop };
    await new Promise((r) => setTimeout(r, 20));
  }
  await stop();
  return {
    failed: exited
      ? `anvil exited early: ${stderr.trim() || '(no output)'}`
      : `anvil did not answer on ${rpcUrl} within ${timeoutMs} ms`,
  };
}

/** Starts anvil; retries on a new port if the chosen one was taken in the meantime. */
export async function startAnvil(chainId: number, timeoutMs = 10_000): Promise<AnvilProcess> {
  const binary = anvilBinaryPath();
  const failures: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = await startOnce(binary, chainId, timeoutMs);
    if (!('failed' in started)) return started;
    failures.push(started.failed);
  }
  throw new Error(`could not start anvil (${binary}):\n${failures.join('\n')}`);
}
