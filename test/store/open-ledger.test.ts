/** The factory: which backend a configuration selects, and how a bad one is refused. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { GspcError } from '../../src/core/errors.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { tempDir } from '../helpers/tmp.js';
import { rejectsWith } from './ledger-harness.js';

const configInvalid = (e: unknown) => e instanceof GspcError && e.code === 'config_invalid';

describe('openLedger', () => {
  it('a SQLite path opens SQLite in WAL mode with the schema version recorded', async () => {
    const path = join(tempDir('gspc-ledger-'), 'ledger.sqlite');
    const ledger = await openLedger({ sqlitePath: path });
    assert.equal(ledger.backend, 'sqlite');
    assert.equal(ledger.schemaVersion, 6);
    await ledger.close();
    const db = new Database(path, { readonly: true });
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.deepEqual(db.prepare('SELECT version FROM schema_migrations ORDER BY version').all(), [
        { version: 1 },
        { version: 2 },
        { version: 3 },
        { version: 4 },
        { version: 5 },
        { version: 6 },
      ]);
    } finally {
      db.close();
    }
  });

  it('refuses no store, two stores, or a URL that is not PostgreSQL', async () => {
    await assert.rejects(openLedger({}), configInvalid);
    await assert.rejects(
      openLedger({ databaseUrl: 'postgres://x@127.0.0.1/db', sqlitePath: '/tmp/x.sqlite' }),
      configInvalid,
    );
    await assert.rejects(openLedger({ databaseUrl: 'mysql://x@127.0.0.1/db' }), configInvalid);
  });

  it('an unreachable PostgreSQL or an unopenable SQLite file is "unavailable", with no password in the message', async () => {
    await rejectsWith(
      openLedger({ databaseUrl: 'postgres://gspc:s3cret@127.0.0.1:1/gspc' }),
      'ledger_unavailable',
      /^(?!.*s3cret).*127\.0\.0\.1:1/,
    );
    const dir = tempDir('gspc-ledger-');
    await rejectsWith(openLedger({ sqlitePath: join(dir, 'missing-dir', 'ledger.sqlite') }), 'ledger_unavailable');
    writeFileSync(join(dir, 'not-a-db.sqlite'), 'this is not a SQLite database, just text long enough to be read');
    await rejectsWith(openLedger({ sqlitePath: join(dir, 'not-a-db.sqlite') }), 'ledger_unavailable', /not-a-db/);
  });
});
