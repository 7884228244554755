import type { FastifyInstance } from 'fastify';
import { after } from 'node:test';
import { buildApp } from '../../src/http/app.js';
import { ServedState, unsignedLiveState } from '../../src/http/served-state.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { demoCorpus, tempDir } from './tmp.js';

/** The real app over a freshly published release of `corpus` (the demo by default). */
export function demoApp(corpus = demoCorpus): { app: FastifyInstance; state: ServedState; dataDir: string } {
  const dataDir = tempDir();
  const { dir } = publishRelease(corpus, dataDir);
  const state = new ServedState(loadRelease(dir), unsignedLiveState());
  const app = buildApp({ state, logLevel: 'silent' });
  after(() => app.close());
  return { app, state, dataDir };
}
