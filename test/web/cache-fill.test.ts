/**
 * The cache fill (issue 38, finding 3): the fast path recorded every request target a document
 * answered, up to 200,000 of them with no bound on their bytes, and `/api/gspc?` padded with `&`
 * is a distinct target each time that answers 200: 64,000 such requests took the heap from 44 MB
 * to 1.1 GB. Now only the one spelling of a query a document reads is recorded, and the record
 * is bounded in bytes: the heap does not grow with the padding.
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { demoApp } from '../helpers/app.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function get(port: number, agent: Agent, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

describe('the fast path cache is bounded (issue 38)', () => {
  it('2,000 board reads padded with & each a different target: the heap grows by less than 4 MB', async () => {
    const { state } = demoApp();
    const app = buildApp({ state, logLevel: 'silent' });
    after(() => app.close());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    after(() => agent.destroy());
    for (let i = 0; i < 50; i++) await get(port, agent, '/api/gspc'); // warm
    const before = heapMb();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 2_000; i += 4)
      await Promise.all(
        [0, 1, 2, 3].map(async (j) => {
          const s = await get(port, agent, `/api/gspc?${'&'.repeat(6_000 + i + j)}`);
          statuses.set(s, (statuses.get(s) ?? 0) + 1);
        }),
      );
    const grown = heapMb() - before;
    // The padding is read as no query (it names nothing): the board, or a refusal; never stored.
    assert.ok(
      [...statuses.keys()].every((s) => s === 200 || s === 400),
      JSON.stringify([...statuses]),
    );
    assert.ok(grown < 4, `the heap grew by ${grown.toFixed(1)} MB`);
  });
});
