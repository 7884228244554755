/**
 * The data directory: `releases/<id>/` and the `current` symlink. Switching `current` writes a
 * new symlink aside and renames it over the old one: the one atomic switch POSIX offers.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readlinkSync, renameSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** The release `<dataDir>/current` points at, or undefined when nothing is published yet. */
export function currentReleaseDir(dataDir: string): string | undefined {
  try {
    return resolve(dataDir, readlinkSync(join(dataDir, 'current')));
  } catch {
    return undefined;
  }
}

export function switchCurrent(dataDir: string, releaseDir: string): void {
  const link = join(dataDir, 'current');
  const tmp = `${link}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  symlinkSync(relative(dataDir, releaseDir), tmp);
  renameSync(tmp, link);
  fsyncDir(dataDir);
}

export function fsyncDir(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
