/**
 * The ledger contract on PostgreSQL: a fresh database per run on the local server. When no
 * server answers, the half is skipped with the reason in the report, never silently.
 */
import { describe, it } from 'node:test';
import { ledgerContract } from './ledger-contract.js';
import { ADMIN_URL, postgresHarness, probePostgres } from './postgres-harness.js';

const probe = await probePostgres();
if (probe.ok) {
  ledgerContract('PostgreSQL', postgresHarness());
} else {
  const reason = `PostgreSQL unreachable at ${ADMIN_URL.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')}: ${probe.reason}`;
  console.warn(`SKIPPING the PostgreSQL ledger contract: ${reason}`);
  describe('ledger contract: PostgreSQL', () => {
    it('runs the ledger contract on PostgreSQL', (t) => {
      t.skip(reason);
    });
  });
}
