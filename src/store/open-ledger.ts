import { GspcError } from '../core/errors.js';
import type { Ledger } from './ledger.js';

export interface OpenLedgerOptions {
  /** `postgres://` or `postgresql://` URL: selects PostgreSQL (several replicas share it). */
  databaseUrl?: string;
  /** SQLite file (created if missing): the embedded default for a single instance. */
  sqlitePath?: string;
  /** PostgreSQL pool size (default 10). */
  poolMax?: number;
  /** SQLite: how long a write waits for another process's lock (default 5000 ms). */
  busyTimeoutMs?: number;
  /**
   * SQLite: checkpoint the write-ahead log from a worker thread, never inside a commit (the
   * service sets it: a commit's latency is a paid request's; decision O13).
   */
  checkpointInBackground?: boolean;
}

/**
 * Opens the ledger the configuration names and brings its schema to the latest version
 * (idempotent; safe for replicas starting together). Exactly one of `databaseUrl` and
 * `sqlitePath` must be given: guessing which of two configured stores holds the money is worse
 * than refusing to start. Each backend is imported only when chosen, so a SQLite deployment
 * never loads pg, and a PostgreSQL one never loads the native SQLite binding.
 */
export async function openLedger(opts: OpenLedgerOptions): Promise<Ledger> {
  const { databaseUrl, sqlitePath } = opts;
  if (databaseUrl !== undefined && sqlitePath !== undefined) {
    throw new GspcError('config_invalid', 'ledger: give either a PostgreSQL database URL or a SQLite path, not both');
  }
  if (databaseUrl !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
      throw new GspcError('config_invalid', 'ledger: the database URL must start with postgres:// or postgresql://');
    }
    const { PostgresLedger } = await import('./postgres/postgres-ledger.js');
    return PostgresLedger.open(databaseUrl, opts.poolMax);
  }
  if (sqlitePath !== undefined && sqlitePath !== '') {
    const { SqliteLedger } = await import('./sqlite/sqlite-ledger.js');
    return SqliteLedger.open(sqlitePath, opts.busyTimeoutMs, { checkpointInBackground: opts.checkpointInBackground });
  }
  throw new GspcError('config_invalid', 'ledger: no store configured (a PostgreSQL database URL or a SQLite path)');
}
