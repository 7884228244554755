/**
 * Checkpoints of the SQLite ledger's write-ahead log from a worker thread (decision O13), so no
 * paid request waits for one.
 *
 * By default SQLite checkpoints inside the commit that takes the log past 1,000 pages: that
 * commit copies the log into the database file and fsyncs it before it returns. A settlement
 * record carries its artefact (tens of KB), so every 70-80 paid requests one of them waited
 * 5-8 ms more than the rest, on the event loop every other request shares: that was the p99 of
 * the paid path (docs/performance.md §5). The serving connection now never checkpoints
 * (`wal_autocheckpoint = 0`); a worker with its own connection runs a PASSIVE checkpoint, which
 * waits for no reader or writer, every `intervalMs`. If the worker fails, the serving connection
 * checkpoints inline again, so the log can never grow without bound.
 *
 * The worker is a script evaluated from this string rather than a file beside this one: the same
 * code then runs compiled (dist/) and from the sources under tsx, whose loader hooks worker
 * threads do not inherit on Node 20.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** SQLite's own default threshold, restored on the serving connection if the worker fails. */
const INLINE_PAGES = 1000;

export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;

  constructor(db: Database.Database, path: string, busyTimeoutMs: number, intervalMs = 200) {
    db.pragma('wal_autocheckpoint = 0');
    this.#worker = new Worker(WORKER, {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), path, busyTimeoutMs, intervalMs },
    });
    this.#worker.unref();
    this.#exited = new Promise((resolve) => {
      const inline = () => {
        if (db.open) db.pragma(`wal_autocheckpoint = ${INLINE_PAGES}`);
        resolve();
      };
      this.#worker.once('error', inline);
      this.#worker.once('exit', inline);
    });
  }

  /** Stops the worker (its connection closed) before the serving connection closes. */
  async stop(): Promise<void> {
    this.#worker.ref(); // held until it has exited: the caller awaits it
    this.#worker.postMessage('stop');
    await this.#exited;
  }
}
