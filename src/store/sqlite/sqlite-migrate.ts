import type Database from 'better-sqlite3';
import { latestVersion, pendingMigrations } from '../migration.js';
import { SQLITE_MIGRATIONS } from './sqlite-migrations.js';

/**
 * Brings a SQLite ledger to the latest schema and returns its version. The check and the steps
 * run in one IMMEDIATE transaction (the write lock is taken first), so two processes opening
 * the same new file cannot both apply a step; DDL is transactional in SQLite.
 */
export function migrateSqlite(db: Database.Database, path: string): number {
  const migrate = db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    const applied = (db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map(
      (r) => r.version,
    );
    const record = db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)');
    for (const m of pendingMigrations(SQLITE_MIGRATIONS, applied, `SQLite ledger ${path}`)) {
      db.exec(m.sql);
      record.run(m.version, m.name);
    }
  });
  migrate.immediate();
  return latestVersion(SQLITE_MIGRATIONS);
}
