/**
 * What every command shares: where its output goes, how it sets the exit status, and one ledger
 * opened per command and closed after. The output is passed in (the bin passes the process's
 * streams), so that `gspc` runs in-process exactly as from the command line: the tests call
 * `main()` with their own `CliIo` instead of starting a process per command.
 */
import type { Ledger } from '../store/ledger.js';
import { openLedger, type OpenLedgerOptions } from '../store/open-ledger.js';
import { terminalText } from './terminal-text.js';

export interface CliIo {
  /** Standard output. */
  out(text: string): void;
  /** Standard error. */
  err(text: string): void;
  /** Whether standard error is a terminal (a progress line is drawn only there). */
  readonly errIsTty: boolean;
}

/** The process's own streams: what `bin/gspc.js` passes. */
export const PROCESS_IO: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  errIsTty: process.stderr.isTTY === true,
};

/** One run of `gspc`: its output and the exit status a command sets (0 unless one does). */
export class CliRun {
  exitCode = 0;
  constructor(readonly io: CliIo) {}

  /** A line (or lines) on standard output, with every control character written inert (terminal-text.ts). */
  print(text: string): void {
    const safe = terminalText(text);
    this.io.out(safe.endsWith('\n') ? safe : `${safe}\n`);
  }

  json(value: unknown): void {
    this.print(JSON.stringify(value, null, 2));
  }

  /** A line on standard error, written inert like {@link print}. */
  warn(text: string): void {
    const safe = terminalText(text);
    this.io.err(safe.endsWith('\n') ? safe : `${safe}\n`);
  }
}

export async function withLedger<T>(ledgerOptions: OpenLedgerOptions, fn: (ledger: Ledger) => Promise<T>): Promise<T> {
  const ledger = await openLedger(ledgerOptions);
  try {
    return await fn(ledger);
  } finally {
    await ledger.close();
  }
}
