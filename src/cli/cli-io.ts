/** What the ledger commands share: one ledger opened per command and closed after, and output. */
import type { Ledger } from '../store/ledger.js';
import { openLedger, type OpenLedgerOptions } from '../store/open-ledger.js';

export async function withLedger<T>(ledgerOptions: OpenLedgerOptions, fn: (ledger: Ledger) => Promise<T>): Promise<T> {
  const ledger = await openLedger(ledgerOptions);
  try {
    return await fn(ledger);
  } finally {
    await ledger.close();
  }
}

export const print = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
export const json = (value: unknown) => print(JSON.stringify(value, null, 2));
