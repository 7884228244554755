/**
 * A corpus directory published with test keys and served by the real app and service (no port):
 * what the per-document tests of /api/models, /api/cost, /api/windows, /api/slices, /api/items and
 * /api/model-cards read through. The app and the service's fabric are closed after the test.
 */
import { after } from 'node:test';
import { buildApp, composeService } from '../../src/app.js';
import { readRailConfig } from '../../src/config.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveSigning, testSigning } from './app.js';
import { tempDir } from './tmp.js';

export function serveCorpus(dir: string) {
  const signing = testSigning();
  const release = publishRelease(dir, tempDir(), signing.inputs).dir;
  const state = new ServedState(loadRelease(release), liveSigning(signing));
  const options = { state, logLevel: 'silent', products: { rail: readRailConfig({}) } } as const;
  const app = buildApp(options);
  after(() => app.close());
  const { read, service } = composeService(options);
  after(() => service.fabric.stop());
  return { app, read, release, options, state };
}
