/**
 * CPU time of other processes, from Linux /proc: what the replica and board speed benchmarks use
 * to show which process was the bottleneck of a run.
 */
import { readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces). */
function statFields(pid: number): string[] | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return f.slice(f.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // gone
  }
}

/** utime + stime of the given processes (all their threads), in ms (USER_HZ 100). */
export function cpuMs(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/** A process's direct children (nginx's workers, the process `taskset` ran). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter((x) => x !== '')
      .map(Number);
  } catch {
    return [];
  }
}
