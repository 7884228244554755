/**
 * The one ledger contract suite. Each backend's test file calls `ledgerContract` with a harness
 * that makes fresh stores; every assertion here holds for SQLite and PostgreSQL alike.
 */
import { after, before, describe } from 'node:test';
import type { Ledger } from '../../src/store/ledger.js';
import type { LedgerHarness, LedgerStore } from './ledger-harness.js';
import { actionJobsContract } from './ledger-contract-action-jobs.js';
import { issue37Contract } from './ledger-contract-issue37.js';
import { recordContract } from './ledger-contract-records.js';
import { schemaV2Contract } from './ledger-contract-schema-v2.js';
import { settlementContract, type ContractContext } from './ledger-contract-settlements.js';
import { storageContract } from './ledger-contract-storage.js';

export function ledgerContract(backend: string, harness: LedgerHarness): void {
  describe(`ledger contract: ${backend}`, () => {
    let store: LedgerStore | undefined;
    let ledger: Ledger | undefined;
    before(async () => {
      store = await harness.fresh();
      ledger = await store.open();
    });
    after(async () => {
      await ledger?.close();
    });
    // Tests share one store and use fresh random keys, so they never see each other's records.
    const ctx: ContractContext = { ledger: () => ledger!, store: () => store! };
    settlementContract(ctx);
    recordContract(ctx);
    schemaV2Contract(ctx);
    storageContract(ctx, harness);
    issue37Contract(ctx);
    actionJobsContract(harness);
  });
}
