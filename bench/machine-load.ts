/**
 * Machine-wide CPU load, so the bench can tell when something other than the processes it
 * measures was competing for the 2 cores (a test run, a build): such a window's figures say
 * more about the neighbour than about the code. Linux only (/proc/stat); elsewhere every
 * function returns undefined and the bench reports "n/a".
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

export interface Jiffies {
  busy: number;
  total: number;
}

/** Busy and total jiffies of all CPUs together, from the first line of /proc/stat. */
export function machineJiffies(): Jiffies | undefined {
  if (!existsSync('/proc/stat')) return undefined;
  const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3]! - f[4]!, total }; // fields 3 and 4 are idle and iowait
}

/** Busy CPU between two samples, in % of one core (so 2 saturated cores read 200). */
export function machineBusy(a: Jiffies | undefined, b: Jiffies | undefined): number | undefined {
  if (!a || !b || b.total === a.total) return undefined;
  return ((b.busy - a.busy) / (b.total - a.total)) * cpus().length * 100;
}

/**
 * Other CPU (% of one core) above which a window counts as disturbed. Loopback network work
 * the kernel charges to no process makes "other" read ~5-15 % even on a quiet machine.
 */
export const DISTURBED_OTHER_CPU = 30;
