/**
 * The peak resident set size of this process, in MB (2^20 bytes).
 *
 * Not `process.resourceUsage().maxRSS` alone: on Linux `getrusage`'s `ru_maxrss` survives
 * `execve`, so a child forked from a large parent (the bench process, which has just generated a
 * 100 MB-1 GB input) reports the parent's peak as its own. Measured here: a child of a parent
 * holding 600 MB said 604 MB of maxRSS with an RSS of 39 MB. The kernel's own high-water mark of
 * this process's memory (`VmHWM` in /proc/self/status) starts afresh at exec, and unlike a
 * sampling timer it also sees the peak of synchronous work. Elsewhere, maxRSS is all there is.
 */
import { readFileSync } from 'node:fs';

export function peakRssMB(): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb !== undefined) return Number(kb) / 1024;
  } catch {
    /* no /proc: not Linux */
  }
  return process.resourceUsage().maxRSS / 1024;
}
