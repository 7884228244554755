/**
 * Where `gspc monitor` keeps its memory: `<state dir>/monitor.json`, read strictly
 * (src/core/monitor/monitor-state.ts: a corrupt file is one line, `monitor_state_invalid`) and
 * written to a temporary file, synced and renamed, so a crash leaves the old state or the new,
 * never half of one. The state is the monitor's own: no server is asked what it saw before.
 */
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { GspcError } from '../core/errors.js';
import { type MonitorState, parseMonitorState } from '../core/monitor/monitor-state.js';

const STATE_FILE = 'monitor.json';

export const statePath = (dir: string): string => join(dir, STATE_FILE);

export function readMonitorState(dir: string): MonitorState | undefined {
  const path = statePath(dir);
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new GspcError(
      'monitor_state_invalid',
      `${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  return parseMonitorState(text, path);
}

/**
 * The state directory, made if missing: it or its parent must be a writable directory. Checked
 * before a poll, so a wrong path is refused at once (and a recursive mkdir under a special file
 * system such as /proc, which never returns in Node 20, is never tried).
 */
export function ensureStateDir(dir: string): void {
  const target = existsSync(dir) ? dir : dirname(dir);
  try {
    if (!statSync(target).isDirectory()) throw new Error('not a directory');
    accessSync(target, constants.W_OK);
  } catch (e) {
    throw new GspcError(
      'config_invalid',
      `--state ${dir}: ${existsSync(dir) ? 'it' : `its parent ${target}`} is not a writable directory (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  if (target !== dir) mkdirSync(dir);
}

export function writeMonitorState(dir: string, state: MonitorState): void {
  const tmp = join(dir, `.${STATE_FILE}.${process.pid}`);
  const fd = openSync(tmp, 'w', 0o644);
  try {
    writeSync(fd, `${JSON.stringify(state, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, statePath(dir));
}
