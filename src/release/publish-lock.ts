/**
 * One publisher per data directory at a time. Two publishes at once would each continue the same
 * previous release and race for `current`: the loser's release continues a log the winner has
 * already extended, and the card history forks (issue 16). The lock is a directory,
 * `<dataDir>/publish.lock/`, created atomically by `mkdir`, holding `owner.json` with the
 * publisher's pid and host.
 *
 * Why not a lock library (proper-lockfile and the like): they decide staleness by an mtime that a
 * timer refreshes, and a publish is one long synchronous computation (seconds for a million rows)
 * during which no timer runs, so a live publish would look stale to the next publisher. A
 * publisher is a process on this machine, so "its pid is gone" is an exact test; a lock left by
 * a killed publish is taken over at once, and one held by a live process is refused with who
 * holds it. A lock from another host (a shared disk) is never taken over.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { GspcError } from '../core/errors.js';

const LOCK = 'publish.lock';
/** A lock claim's name: `publish.lock.new-<pid>-<random>`. */
const CLAIM = /^publish\.lock\.new-(\d+)-/;

interface Owner {
  pid: number;
  host: string;
  since: string;
}

/** Whether a process with this pid exists on this machine (EPERM: it exists, owned by another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lock: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(join(lock, 'owner.json'), 'utf8')) as Owner;
  } catch {
    return undefined; // being written, or removed meanwhile
  }
}

function acquire(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lock = join(dataDir, LOCK);
  for (let attempt = 0; ; attempt++) {
    // The lock appears whole or not at all: its owner file is written in a directory of our own,
    // which is then renamed to the lock's name (a rename onto an existing, non-empty directory
    // fails). A publish killed at any moment leaves either no lock or a lock that names it.
    const claim = `${lock}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
    mkdirSync(claim);
    const owner: Owner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    writeFileSync(join(claim, 'owner.json'), `${JSON.stringify(owner)}\n`);
    try {
      renameSync(claim, lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (e) {
      rmSync(claim, { recursive: true, force: true });
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw e;
    }
    const holder = readOwner(lock);
    // No owner file: a lock left by a version of gspc that wrote it after creating the lock.
    const stale = holder === undefined || (holder.host === hostname() && !alive(holder.pid));
    if (!stale || attempt >= 3) {
      const who =
        holder === undefined
          ? 'another gspc publish'
          : `another gspc publish (pid ${holder.pid} on ${holder.host}, since ${holder.since})`;
      throw new GspcError(
        'publish_locked',
        `${who} is publishing into ${dataDir}; nothing was published. Wait for it to finish and publish again` +
          (holder !== undefined && holder.host !== hostname()
            ? ` (the lock ${lock} was taken on another host: remove it by hand only if that publish is dead)`
            : ''),
        { lock, ...(holder !== undefined && { owner: holder }) },
      );
    }
    // The publisher that held it was killed: move its lock aside (one mover wins) and retry. If
    // what was moved is not that lock (another publisher took it over between our read and the
    // move), it is put back at once, so a live lock is never lost.
    const aside = `${lock}.stale-${holder?.pid ?? 'unknown'}-${randomBytes(4).toString('hex')}`;
    try {
      renameSync(lock, aside);
    } catch {
      continue; // another publisher moved it first
    }
    const moved = readOwner(aside);
    if (moved?.pid !== holder?.pid || moved?.since !== holder?.since)
      try {
        renameSync(aside, lock);
      } catch {
        /* a third publisher holds the lock now; the moved one is removed as a leftover */
      }
  }
}

/** Runs `fn` holding the data directory's publish lock; it is released however `fn` ends. */
export async function withPublishLock<T>(dataDir: string, fn: () => T | Promise<T>): Promise<T> {
  // A refusal writes nothing: a data directory this call made (with any parent it made) goes
  // again when the publish or pull fails (issue 28: a refused pull left an empty ./replica0).
  const made = firstMissing(resolve(dataDir));
  let ok = false;
  const release = acquire(dataDir);
  try {
    removeLeftovers(dataDir);
    const result = await fn();
    ok = true;
    return result;
  } finally {
    release();
    if (!ok && made !== undefined) rmSync(made, { recursive: true, force: true });
  }
}

/** The outermost directory of `dir`'s path that does not exist yet (undefined when `dir` exists). */
function firstMissing(dir: string): string | undefined {
  let missing: string | undefined;
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    missing = d;
    if (dirname(d) === d) break;
  }
  return missing;
}

/**
 * What killed publishes leave behind, removed by the next one (which holds the lock, so none of
 * it is in use): temporary release directories (`releases/.tmp-<pid>-…`), moved-aside locks, and
 * lock claims of processes that are gone.
 */
function removeLeftovers(dataDir: string): void {
  for (const name of existsSync(dataDir) ? readdirSync(dataDir) : []) {
    const claim = CLAIM.exec(name);
    if (name.startsWith(`${LOCK}.stale-`) || (claim !== null && !alive(Number(claim[1]))))
      rmSync(join(dataDir, name), { recursive: true, force: true });
  }
  const releases = join(dataDir, 'releases');
  for (const name of existsSync(releases) ? readdirSync(releases) : [])
    if (name.startsWith('.tmp-')) rmSync(join(releases, name), { recursive: true, force: true });
}
