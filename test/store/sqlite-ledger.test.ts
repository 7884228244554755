/**
 * The ledger contract on SQLite (a fresh file in a temporary directory per store), and a race
 * between threads with their own connections, which one event loop alone cannot produce.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { openLedger } from '../../src/store/open-ledger.js';
import { SQLITE_MIGRATIONS } from '../../src/store/sqlite/sqlite-migrations.js';
import { tempDir } from '../helpers/tmp.js';
import { ledgerContract } from './ledger-contract.js';
import type { LedgerHarness, LedgerStore } from './ledger-harness.js';
import { artefact, newKey, reservation, t } from './ledger-fixtures.js';

const dir = tempDir('gspc-ledger-');
let count = 0;

function sqliteStore(path: string): LedgerStore {
  return {
    open: () => openLedger({ sqlitePath: path }),
    async raw(sql) {
      const db = new Database(path);
      try {
        const stmt = db.prepare(sql);
        if (stmt.reader) return stmt.all() as Array<Record<string, unknown>>;
        stmt.run();
        return [];
      } finally {
        db.close();
      }
    },
    async exec(script) {
      const db = new Database(path);
      try {
        db.exec(script);
      } finally {
        db.close();
      }
    },
  };
}

const nextPath = () => join(dir, `ledger-${++count}.sqlite`);
const sqliteHarness: LedgerHarness = { fresh: async () => sqliteStore(nextPath()), migrations: SQLITE_MIGRATIONS };

ledgerContract('SQLite', sqliteHarness);
// As gspc serve opens it: the same contract with the log checkpointed by a worker (decision O13).
ledgerContract('SQLite, log checkpointed in the background', {
  fresh: async () => {
    const path = nextPath();
    return { ...sqliteStore(path), open: () => openLedger({ sqlitePath: path, checkpointInBackground: true }) };
  },
  migrations: SQLITE_MIGRATIONS,
});

/**
 * A worker running `file` (named by its .ts source). Compiled (`npm test` runs build/js/) it is
 * the .js beside this file. From the sources (`npm run test:unit`, under tsx): worker threads do
 * not inherit tsx's loader hooks on Node 20, so the worker first registers tsx, then imports the
 * TypeScript module.
 */
function tsWorker(file: string, workerData: unknown): Worker {
  if (import.meta.url.endsWith('.js'))
    return new Worker(new URL(file.replace(/\.ts$/, '.js'), import.meta.url), { workerData });
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(new URL(file, import.meta.url).href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

describe('ledger: SQLite write-ahead log checkpoints (decision O13)', () => {
  /** 20 settlements with a 50 KB artefact each (about 1 MB of log), then the database file's size. */
  async function settleMany(path: string, background: boolean): Promise<() => number> {
    const ledger = await openLedger({ sqlitePath: path, checkpointInBackground: background });
    after(() => ledger.close());
    for (let i = 0; i < 20; i++) {
      const key = newKey();
      await ledger.reserve(reservation(key));
      await ledger.markSettled(key, { ...artefact(50_000), transaction: `0x${'ab'.repeat(32)}`, at: t(i) });
    }
    return () => statSync(path).size;
  }

  it('in the background, a worker copies the log into the database file while the ledger serves', async () => {
    const size = await settleMany(nextPath(), true);
    const until = Date.now() + 10_000;
    while (size() < 1_000_000 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.ok(size() >= 1_000_000, `the database file holds the artefacts (${size()} bytes)`);
  });

  it('inline (the default, as the CLI opens it), 1 MB of log stays in the log until 1,000 pages', async () => {
    const size = await settleMany(nextPath(), false);
    await new Promise((r) => setTimeout(r, 600));
    assert.ok(size() < 1_000_000, `no checkpoint yet: the database file is small (${size()} bytes)`);
  });

  it('closing removes the log, its pages in the database file', async () => {
    const path = nextPath();
    const ledger = await openLedger({ sqlitePath: path, checkpointInBackground: true });
    const key = newKey();
    await ledger.reserve(reservation(key));
    await ledger.close();
    assert.equal(existsSync(`${path}-wal`), false, 'the last connection to close checkpointed and removed the log');
    const reopened = await openLedger({ sqlitePath: path });
    assert.equal((await reopened.get(key))?.state, 'RESERVED');
    await reopened.close();
  });
});

describe('ledger: SQLite durability of each write (decision O15)', () => {
  it('markSettled alone commits without waiting for the disk; every other write, and every write after it, waits', async () => {
    const ledger = await openLedger({ sqlitePath: nextPath() });
    after(() => ledger.close());
    // The connection is private: the test reads the setting each transaction starts under.
    const db = Reflect.get(ledger, 'db') as Database.Database;
    const seen: number[] = [];
    const transaction = db.transaction.bind(db);
    db.transaction = ((fn: (...a: unknown[]) => unknown) => {
      seen.push(db.pragma('synchronous', { simple: true }) as number);
      return transaction(fn);
    }) as typeof db.transaction;
    const FULL = 2;
    const NORMAL = 1;

    const settled = newKey();
    await ledger.reserve(reservation(settled));
    await ledger.markSettled(settled, { ...artefact(1000), transaction: `0x${'ab'.repeat(32)}`, at: t(1) });
    await assert.rejects(
      ledger.markSettled(settled, { ...artefact(1000), transaction: `0x${'ab'.repeat(32)}`, at: t(2) }),
      (e: { code?: string }) => e.code === 'ledger_transition_invalid',
    );
    const failed = newKey();
    await ledger.reserve(reservation(failed));
    await ledger.markFailed(failed, { error: 'refused', at: t(3) });
    assert.deepEqual(seen, [FULL, NORMAL, NORMAL, FULL, FULL]);
    assert.equal(db.pragma('synchronous', { simple: true }), FULL);
  });
});

describe('ledger: SQLite across threads', () => {
  it('4 threads, each with its own connection, racing 5 reserves each on one key: exactly one "reserved"', async () => {
    const path = nextPath();
    await (await sqliteStore(path).open()).close(); // migrate first, so the race is about reserve alone
    const start = new SharedArrayBuffer(8);
    const gate = new Int32Array(start); // [0]: go signal, [1]: threads ready
    const data = { path, reservation: reservation(newKey()), tries: 5, start };
    const workers = Array.from({ length: 4 }, () => tsWorker('./sqlite-reserve-worker.ts', data));
    let failure: unknown;
    const results = workers.map(
      (w) =>
        new Promise<string[]>((resolve, reject) => {
          w.once('message', resolve);
          w.once('error', (e) => reject((failure = e)));
        }),
    );
    while (Atomics.load(gate, 1) < workers.length && failure === undefined) await new Promise((r) => setTimeout(r, 5));
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    const outcomes = (await Promise.all(results)).flat();
    assert.equal(outcomes.length, 20);
    assert.equal(outcomes.filter((o) => o === 'reserved').length, 1);
    assert.equal(outcomes.filter((o) => o === 'exists').length, 19);
  });
});
