/**
 * An expected I/O failure of a command (a full disk, a directory without write permission, a
 * read-only file system, a directory that vanished) as one line that names the path and what was
 * left intact, instead of node's stack trace (issue 28: `gspc publish` onto a full disk printed a
 * raw ENOSPC trace, though it had kept the current release intact and cleaned up).
 */
const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOENT: 'no such file or directory (did it vanish meanwhile?)',
  ENOTDIR: 'a part of the path is not a directory',
  EIO: 'an input/output error of the device',
  EMFILE: 'too many open files',
};

/** What each command leaves as it was when it fails part-way (its documented atomicity). */
const INTACT: Readonly<Record<string, string>> = {
  publish: 'the current release is unchanged and nothing half-written is served (a publish is atomic)',
  pull: 'the current release is unchanged and nothing half-copied is served (a pull is atomic)',
  import: 'the corpus is unchanged (a refused import writes nothing)',
  keygen: 'no existing key was replaced',
  serve: 'nothing was served',
  export: 'the output directory may hold part of the export: export again into an empty one',
  witness: 'no witness evidence was recorded',
  corrections: 'the corrections ledger is unchanged',
};

/** The one line for an expected I/O failure of `command`, or undefined for any other error. */
export function ioFailureLine(err: unknown, command: string | undefined): string | undefined {
  const e = err as NodeJS.ErrnoException;
  const reason = typeof e?.code === 'string' ? REASONS[e.code] : undefined;
  if (reason === undefined) return undefined;
  const path = e.path ?? (e as { dest?: string }).dest;
  const what = `${e.syscall === 'open' || e.syscall === 'write' || e.syscall === 'mkdir' || e.syscall === 'rename' ? 'cannot write' : 'cannot use'} ${path ?? 'a file'}`;
  const intact = (command && INTACT[command]) ?? 'nothing else was changed';
  return `${what}: ${reason} (${e.code}); ${intact}`;
}
