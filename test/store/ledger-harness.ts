import assert from 'node:assert/strict';
import { GspcError } from '../../src/core/errors.js';
import { ledgerCodeOf, type LedgerErrorCode } from '../../src/store/ledger-errors.js';
import type { Ledger } from '../../src/store/ledger.js';
import type { Migration } from '../../src/store/migration.js';

/** One database (a SQLite file, a PostgreSQL database) that the contract suite may open many times. */
export interface LedgerStore {
  /** A new Ledger (connection or pool) on this store; the caller closes it. */
  open(): Promise<Ledger>;
  /** Runs SQL on a separate raw connection, bypassing the ledger (schema checks, delete attempts). */
  raw(sql: string): Promise<Array<Record<string, unknown>>>;
  /** Runs a script of several statements on a raw connection (building an old schema by hand). */
  exec(script: string): Promise<void>;
}

/** How a backend's test file gives the suite its stores; each `fresh()` is empty and never opened. */
export interface LedgerHarness {
  fresh(): Promise<LedgerStore>;
  /** The backend's schema steps, so a test can build a store as an older service left it. */
  migrations: readonly Migration[];
}

/** Asserts a rejection is a GspcError carrying the intended ledger code. */
export async function rejectsWith(p: Promise<unknown>, code: LedgerErrorCode, message?: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof GspcError, `expected a GspcError, got ${String(e)}`);
    assert.equal(ledgerCodeOf(e), code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}
