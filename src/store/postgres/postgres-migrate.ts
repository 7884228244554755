import type pg from 'pg';
import { latestVersion, pendingMigrations } from '../migration.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';

// Arbitrary constant naming "the gspc ledger schema" in pg_advisory_xact_lock's key space.
const MIGRATION_LOCK_KEY = 0x67737063;

/**
 * Brings a PostgreSQL ledger to the latest schema and returns its version. Replicas may start
 * together, so the whole check-and-apply runs in one transaction holding a transaction-scoped
 * advisory lock: the second replica waits, then finds nothing pending. DDL is transactional in
 * PostgreSQL, so a failed step leaves the previous version intact.
 */
export async function migratePostgres(pool: pg.Pool, where: string): Promise<number> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)',
    );
    const applied = (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map(
      (r) => r.version,
    );
    for (const m of pendingMigrations(POSTGRES_MIGRATIONS, applied, where)) {
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
    await client.query('COMMIT');
  } catch (e) {
    // A connection that cannot even roll back is destroyed instead of returned to the pool.
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw e;
  } finally {
    client.release(broken);
  }
  return latestVersion(POSTGRES_MIGRATIONS);
}
