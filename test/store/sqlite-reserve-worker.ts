/**
 * A separate thread with its own SQLite connection, for the cross-connection race in
 * sqlite-ledger.test.ts: waits for the shared start signal, then reserves the same key.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openLedger } from '../../src/store/open-ledger.js';
import type { NewReservation } from '../../src/store/ledger.js';

const { path, reservation, tries, start } = workerData as {
  path: string;
  reservation: NewReservation;
  tries: number;
  start: SharedArrayBuffer;
};
const ledger = await openLedger({ sqlitePath: path });
const gate = new Int32Array(start);
Atomics.add(gate, 1, 1);
Atomics.wait(gate, 0, 0);
const outcomes: string[] = [];
for (let i = 0; i < tries; i++) outcomes.push((await ledger.reserve(reservation)).outcome);
await ledger.close();
parentPort!.postMessage(outcomes);
