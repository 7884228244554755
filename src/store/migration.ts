import { ledgerError } from './ledger-errors.js';

/**
 * A numbered schema step. Each backend keeps its own list (the SQL dialects differ) with the
 * same versions and meaning; a store records every applied version in `schema_migrations`,
 * so opening twice, or two replicas opening at once, applies each step exactly once.
 */
export interface Migration {
  version: number;
  name: string;
  /** One or more statements, run in a single transaction with the version row. */
  sql: string;
}

/**
 * The steps still to run, given the versions the store records. A store migrated by a newer
 * service is refused rather than written with an older idea of the schema.
 */
export function pendingMigrations(all: readonly Migration[], applied: readonly number[], where: string): Migration[] {
  const latest = all[all.length - 1]?.version ?? 0;
  const newest = Math.max(0, ...applied);
  if (newest > latest) {
    throw ledgerError(
      'ledger_schema_unsupported',
      `ledger: ${where} is at schema version ${newest}; this service knows up to ${latest}`,
      { version: newest, known: latest },
    );
  }
  const done = new Set(applied);
  return all.filter((m) => !done.has(m.version));
}

/** The version the store is at once every step has run. */
export function latestVersion(all: readonly Migration[]): number {
  return all[all.length - 1]?.version ?? 0;
}
