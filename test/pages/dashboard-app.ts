/**
 * The app the dashboard tests read: the demo release, signed, with the metered products (so the
 * free evidence-bundle preview is served) and a fixed clock (so `days_until`, `observed_at` and
 * rail freshness are the same for the page and for the test's own read of the documents). The
 * capability fabric is observed only when the test says so (`fabric.retarget` + `refresh`), so
 * its rail states do not change under a test.
 */
import type { FastifyInstance } from 'fastify';
import { after } from 'node:test';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { readRailConfig } from '../../src/config.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { FabricObserver } from '../../src/status/fabric-observer.js';
import { RAILS } from '../../src/core/fabric/rails.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

export const FIXED_NOW = new Date('2026-11-21T12:00:00Z');

/**
 * `probe: false`: a fabric that never probes (every rail "not observed yet"); `probe: true`: it
 * probes the origin the test gives it with `fabric.retarget(base)` and `await fabric.refresh()`.
 */
export function dashboardApp(o: { products?: boolean; probe?: boolean; corpus?: string } = {}): {
  app: FastifyInstance;
  fabric: FabricObserver;
} {
  const signing = testSigning();
  const { dir } = publishRelease(o.corpus ?? demoCorpus, tempDir(), signing.inputs);
  const state = new ServedState(loadRelease(dir), liveSigning(signing));
  const now = () => FIXED_NOW;
  const fabric = new FabricObserver({
    origin: 'http://localhost:1',
    timeoutMs: 3500,
    fetch: (url, init) => fetch(url, init),
    now,
    refreshMs: 3_600_000,
    rails: o.probe ? RAILS : [],
  });
  const app =
    o.products === false
      ? buildApp({ state, logLevel: 'silent', now, fabric })
      : buildApp({
          state,
          logLevel: 'silent',
          baseUrl: 'http://localhost:8080',
          now,
          products: { rail: readRailConfig({}) },
          fabric,
        });
  after(async () => {
    fabric.stop();
    await app.close();
  });
  return { app, fabric };
}

/** The served documents a tab is compared with, read as a client reads them. */
export async function servedDocs(get: (path: string) => Promise<unknown>) {
  const obligations = (await get('/peritem/obligations.json')) as { id: string }[];
  const previews = new Map<string, unknown>();
  for (const o of obligations) previews.set(o.id, await get(`/api/evidence-bundle?obligation=${o.id}`));
  return {
    board: await get('/api/gspc'),
    regulation: await get('/api/regulation'),
    obligations,
    previews,
    root: await get('/root.json'),
    witness: await get('/interop/root-witness-latest.json'),
    matrix: await get('/signed/card-matrix.json'),
    withdrawals: await get('/ledgers/withdrawals.json'),
    supersessions: await get('/ledgers/supersessions.json'),
    corrections: await get('/api/corrections'),
    compute: await get('/api/compute'),
    fabric: await get('/api/capability-fabric'),
  };
}
