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
});
