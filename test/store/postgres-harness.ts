import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import pg from 'pg';
import { openLedger } from '../../src/store/open-ledger.js';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/postgres-migrations.js';
import type { LedgerHarness } from './ledger-harness.js';

/** The server the PostgreSQL half runs against; override with GSPC_TEST_POSTGRES_URL. */
export const ADMIN_URL = process.env.GSPC_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Connects once; the reason is the skip message when no server answers. */
export async function probePostgres(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: (e as Error).message || String((e as { code?: string }).code ?? e) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

function urlFor(database: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>, url = ADMIN_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new, empty database gspc_test_<random> (dropped when the test file ends): its URL. */
export async function freshDatabaseUrl(): Promise<string> {
  const db = `gspc_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${db}`));
  after(() => admin((c) => c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`)));
  return urlFor(db);
}

/** Each fresh store is a new database gspc_test_<random>, dropped when the test file ends. */
export function postgresHarness(): LedgerHarness {
  const created: string[] = [];
  after(async () => {
    await admin(async (c) => {
      for (const db of created) await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    });
  });
  return {
    async fresh() {
      const db = `gspc_test_${randomBytes(6).toString('hex')}`;
      await admin((c) => c.query(`CREATE DATABASE ${db}`));
      created.push(db);
      const url = urlFor(db);
      return {
        open: () => openLedger({ databaseUrl: url }),
        raw: (sql) => admin(async (c) => (await c.query(sql)).rows, url),
        // Without parameters pg uses the simple query protocol, which runs several statements.
        exec: (script) =>
          admin(async (c) => {
            await c.query(script);
          }, url),
      };
    },
    migrations: POSTGRES_MIGRATIONS,
  };
}
