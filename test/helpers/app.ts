import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { after } from 'node:test';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import type { SigningLive } from '../../src/serve/signed-board.js';
import { keygen } from '../../src/keys/key-store.js';
import { signingContext, type SigningContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { demoCorpus, tempDir } from './tmp.js';

export const TEST_DID_HOST = 'localhost:8080';

/** Fresh keys in a temporary key directory, and the signing context over them. */
export function testSigning(
  keyDir = join(tempDir(), 'keys'),
  didHost = TEST_DID_HOST,
): SigningContext & { keyDir: string } {
  keygen(keyDir);
  return { ...signingContext(keyDir, didHost), keyDir };
}

export const liveSigning = (s: SigningContext): SigningLive => ({
  did: s.did,
  boardKey: s.inputs.boardKey,
  published: s.keys.published,
  cardKey: s.keys.state('card-attestation-2'),
});

/** The real app over a freshly published, signed release of `corpus` (the demo by default). */
export function demoApp(
  corpus = demoCorpus,
  signing = testSigning(),
): { app: FastifyInstance; state: ServedState; dataDir: string; dir: string; signing: SigningContext } {
  const dataDir = tempDir();
  const { dir } = publishRelease(corpus, dataDir, signing.inputs);
  const state = new ServedState(loadRelease(dir), liveSigning(signing));
  const app = buildApp({ state, logLevel: 'silent' });
  after(() => app.close());
  return { app, state, dataDir, dir, signing };
}
