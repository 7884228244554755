/**
 * Child processes of the bench. Each measured subject (a server, the derivation) runs in its
 * own forked Node process so that, on a 2-core machine, the load generator in the parent and
 * the subject each get a core, and so that memory figures start from a clean heap.
 *
 * Every child started here is remembered by its ChildProcess handle and killed by that handle
 * (never by name) when the bench ends, fails or is interrupted. Children also exit on their own
 * when the IPC channel to the parent closes (see serve-child.ts, derive-child.ts).
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Children run compiled, as `gspc serve` runs in production (dist/, no loader hooks): the bench
 * builds dist/ and build/js/ once at the start (`node scripts/test.mjs --build`, only what
 * changed), and each child script `bench/x.ts` is started as `build/js/bench/x.js`, whose
 * `../src/` imports reach dist/. Measured under tsx, a server pays for tsx's source maps and
 * loader in every stack trace and module load, which the product never does.
 */
export function buildForBench(): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'test.mjs'), '--build'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`the build for the bench failed (exit ${r.status ?? r.signal})`);
}

const compiledScript = (script: string) => join(ROOT, 'build', 'js', relative(ROOT, script)).replace(/\.ts$/, '.js');

export interface ChildOptions {
  /** Extra node flags (`--expose-gc`, `--cpu-prof`, …). */
  execArgv?: string[];
  /**
   * Pin the child to these CPUs from its first instruction (`taskset -c`), so that every thread
   * it ever starts (libuv's pool, V8's compiler and GC threads) shares its core.
   */
  cpus?: string;
}

const live = new Set<BenchChild>();

export class BenchChild {
  private readonly proc: ChildProcess;
  private readonly queue: unknown[] = [];
  private waiter: ((m: unknown) => void) | undefined;
  private exitError: Error | undefined;
  private readonly exited: Promise<void>;
  /** What the child wrote to stderr (warnings, errors), reported by the parent at the end. */
  stderr = '';

  constructor(
    readonly name: string,
    script: string,
    args: string[],
    o: ChildOptions = {},
  ) {
    const execArgv = o.execArgv ?? [];
    // With `cpus`, taskset is the program forked: it sets the affinity and execs node in place,
    // which keeps the IPC channel (its descriptor and NODE_CHANNEL_FD are inherited).
    this.proc = fork(compiledScript(script), args, {
      ...(o.cpus !== undefined && { execPath: '/usr/bin/taskset' }),
      execArgv: o.cpus !== undefined ? ['-c', o.cpus, process.execPath, ...execArgv] : execArgv,
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    this.proc.stderr?.setEncoding('utf8');
    this.proc.stderr?.on('data', (s: string) => {
      if (this.stderr.length < 20_000) this.stderr += s;
    });
    this.proc.on('error', (e) => {
      this.stderr += `(child process error: ${e.message})\n`;
    });
    this.proc.on('message', (m) => {
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = undefined;
        w(m);
      } else this.queue.push(m);
    });
    this.exited = new Promise((resolve) => {
      this.proc.once('exit', (code, signal) => {
        this.exitError = new Error(
          `${name} child exited (code ${code}, signal ${signal})${this.stderr ? `; stderr:\n${this.stderr.trim()}` : ''}`,
        );
        live.delete(this);
        resolve();
      });
    });
    live.add(this);
  }

  /** The child's process id (to pin it to a core, or read its CPU time from /proc). */
  get pid(): number {
    return this.proc.pid!;
  }

  /** The next message from the child; rejects when the child exits first or on timeout. */
  next<T>(timeoutMs: number, what: string): Promise<T> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift() as T);
    if (this.exitError) return Promise.reject(this.exitError);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new Error(`${this.name}: no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiter = (m) => {
        clearTimeout(timer);
        resolve(m as T);
      };
      void this.exited.then(() => {
        if (this.waiter) {
          clearTimeout(timer);
          this.waiter = undefined;
          reject(this.exitError);
        }
      });
    }).then((m) => {
      const err = (m as { error?: string }).error;
      if (err !== undefined) throw new Error(`${this.name}: ${err}`);
      return m;
    });
  }

  /** Sends a message and waits for the child's answer. */
  request<T>(msg: object, timeoutMs: number, what: string): Promise<T> {
    this.send(msg);
    return this.next<T>(timeoutMs, what);
  }

  /**
   * With a callback, a send to a child that is already exiting (EPIPE) is not an uncaught
   * 'error' event; the failure needs no handling here, since a request then fails through
   * next() when the child's exit is seen, and stop() only waits for that exit anyway.
   */
  private send(msg: object): void {
    if (this.proc.connected) this.proc.send(msg, () => {});
  }

  /** Asks the child to stop; kills it (this pid only) if it has not exited within the grace time. */
  async stop(graceMs = 5000): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.send({ type: 'stop' });
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  kill(): void {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
  }
}

/** Kills every child this process started and has not yet seen exit (cleanup on failure). */
export function killAllChildren(): void {
  for (const c of live) c.kill();
}

/**
 * The child's side of the protocol BenchChild speaks: start the server, report its port (or the
 * error), answer `cpu` with process.cpuUsage(), close on `stop`, exit when the parent goes.
 */
export async function serveAsBenchChild(
  listen: () => Promise<{ port: number; close(): Promise<void> }>,
  /** Answers the child's own messages (an object is sent back; undefined: not one of them). */
  answer?: (m: { type?: string }) => object | undefined,
): Promise<void> {
  process.on('disconnect', () => process.exit(0));
  try {
    const server = await listen();
    process.on('message', (m: { type?: string }) => {
      if (m.type === 'cpu') process.send?.({ cpu: process.cpuUsage() });
      else if (m.type === 'stop') void server.close().finally(() => process.exit(0));
      else {
        const reply = answer?.(m);
        if (reply !== undefined) process.send?.(reply);
      }
    });
    process.send?.({ port: server.port });
  } catch (e) {
    process.send?.({ error: (e as Error).stack ?? String(e) });
    process.exitCode = 1;
    process.disconnect?.();
  }
}
