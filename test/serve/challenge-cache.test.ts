/**
 * Issue 38, "bounded memory": the per-second challenge cache holds at most 1000 challenges and
 * 4 MiB, however many distinct URLs one second brings; past the bound a challenge is built each
 * time and still answered.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CHALLENGE_CACHE_BYTES,
  CHALLENGE_CACHE_ENTRIES,
  ChallengeCache,
  type SerialisedChallenge,
  withSignInNonce,
} from '../../src/serve/products.js';
import type { PreparedRelease } from '../../src/serve/prepared.js';

const release = {} as PreparedRelease;
const at = new Date('2026-11-28T00:00:00.000Z');
const challenge = (kib: number): SerialisedChallenge => {
  const json = JSON.stringify({ pad: 'x'.repeat(kib * 1024) });
  return { challenge: {}, json, header: Buffer.from(json).toString('base64') };
};

describe('the challenge cache is bounded in bytes and entries (issue 38)', () => {
  it('large challenges for many URLs in one second stop being kept at 4 MiB, and are still built and answered', () => {
    const cache = new ChallengeCache();
    let built = 0;
    const build = () => {
      built++;
      return challenge(8);
    };
    for (let i = 0; i < 400; i++) {
      const c = cache.get(release, `/api/request-attestation?subject=s${i}`, at, build);
      assert.ok(c.json.length > 8 * 1024);
    }
    const held = cache.held();
    assert.ok(held.bytes <= CHALLENGE_CACHE_BYTES, `${held.bytes} bytes held`);
    assert.ok(held.entries < 400, 'not every one was kept');
    assert.equal(built, 400);
    // One kept is not built again; one past the bound is.
    cache.get(release, '/api/request-attestation?subject=s0', at, build);
    assert.equal(built, 400);
    cache.get(release, '/api/request-attestation?subject=s399', at, build);
    assert.equal(built, 401);
  });

  it('small challenges stop at 1000 entries; the next second starts empty', () => {
    const cache = new ChallengeCache();
    for (let i = 0; i < 1500; i++) cache.get(release, `/u${i}`, at, () => challenge(0));
    assert.equal(cache.held().entries, CHALLENGE_CACHE_ENTRIES);
    cache.get(release, '/u0', new Date(at.getTime() + 1000), () => challenge(0));
    assert.deepEqual(cache.held().entries, 1);
  });

  it('withSignInNonce splices a drawn nonce into the body and its base64 header, at every byte alignment, after non-ASCII text', () => {
    const placeholder = '0123456789abcdef0123456789abcdef';
    for (let pad = 0; pad < 6; pad++) {
      for (const tail of ['', 'x', 'xy']) {
        const challenge = {
          lid: `22 axes · 3 ties — ${'p'.repeat(pad)}`,
          extensions: { 'sign-in-with-x': { info: { nonce: placeholder, uri: 'u' } } },
          ...(tail && { tail }),
        };
        const json = JSON.stringify(challenge);
        const c = { challenge, json, header: Buffer.from(json).toString('base64') };
        const fresh = 'fe'.repeat(16);
        const out = withSignInNonce(c, fresh);
        assert.equal(out.json, json.replace(placeholder, fresh));
        assert.equal(Buffer.from(out.header, 'base64').toString('utf8'), out.json, `pad ${pad} tail ${tail}`);
        assert.equal(withSignInNonce(c, 'not a nonce'), c, 'only 32 hex digits are spliced');
      }
    }
  });
});
