/**
 * A log signed by a revoked key must be the log the revocation trusts (issue 36, review finding
 * 1): trusted-log.ts, the rule every verifier applies through key-source.ts anchorKeys.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Revocation } from '../../src/core/verify/revocation.js';
import { checkTrustedLog, revokedLiveKey } from '../../src/core/verify/trusted-log.js';
import { nodeVerifyCrypto } from '../../src/verify/node-crypto.js';
import { rootOfFirst } from '../helpers/host-views.js';

const h = (s: string) => createHash('sha256').update(s).digest('hex');
const honest = Array.from({ length: 36 }, (_, i) => h(`card ${i}`));
const host = [...honest, h('the revocation')];
const fork = [...honest.slice(0, 35), h('the thief')];
const REVOKED = 'r'.repeat(43);
const revocation = (trusted_root?: string): Revocation => ({
  fragment: 'board-attestation-1',
  x: REVOKED,
  compromised_since: '2026-11-02T00:00:00Z',
  trusted_size: 36,
  ...(trusted_root !== undefined && { trusted_root }),
  revocation: h('rev'),
});
const check = (log: readonly string[], hostLog?: readonly string[], r = revocation(rootOfFirst(honest, 36))) =>
  checkTrustedLog(nodeVerifyCrypto, [r], '#board-attestation-1', REVOKED, log, hostLog);

describe('a log signed by a revoked key', () => {
  it('of trusted_size entries: the trusted log (its root is trusted_root) is accepted, a fork of the same size refused, host or not', async () => {
    assert.equal((await check(honest)).ok, true);
    const v = await check(fork);
    assert.equal(v.ok, false);
    assert.match(
      v.ok ? '' : v.detail,
      /its root [0-9a-f]{64} is not the trusted log's [0-9a-f]{64}: a log the thief signed/,
    );
    const withHost = await check(fork, host);
    assert.match(withHost.ok ? '' : withHost.detail, /its entry 35 is not the DID's host's: a fork of the log/);
  });

  it('of fewer: a prefix only the DID host’s log can show; without it not accepted', async () => {
    assert.equal((await check(honest.slice(0, 30), host)).ok, true);
    assert.equal((await check(fork.slice(0, 30), host)).ok, true, 'the first 30 of the fork are the honest 30');
    const forked = [...honest.slice(0, 10), h('x')];
    assert.equal((await check(forked, host)).ok, false);
    const alone = await check(honest.slice(0, 30));
    assert.match(alone.ok ? '' : alone.detail, /only the DID's host's log can show it is their prefix/);
  });

  it('no log at all (an offer or receipt checked alone on the page): the empty prefix of every log', async () => {
    assert.equal((await check([])).ok, true);
  });

  it('beyond trusted_size: refused', async () => {
    const v = await check(host.concat(h('more')));
    assert.match(v.ok ? '' : v.detail, /beyond the 36 entries the revocation trusts/);
  });

  it('an issue-30 revocation (no trusted_root): the count alone, and the host’s log when at hand', async () => {
    const legacy = revocation();
    assert.equal((await check(fork, host, legacy)).ok, false);
    assert.equal((await check(honest, host, legacy)).ok, true);
    const alone = await check(fork, undefined, legacy);
    assert.match(alone.ok ? '' : alone.detail, /names no trusted root/);
  });

  it('a board key not revoked: nothing to check', async () => {
    const v = await checkTrustedLog(nodeVerifyCrypto, [revocation()], '#b', 'other', fork, undefined);
    assert.equal(v.ok, true);
  });

  it('a live key the revocations name is found', () => {
    const live = new Map([
      ['card-attestation-1', 'c'],
      ['board-attestation-1', REVOKED],
    ]);
    assert.equal(revokedLiveKey(live, [revocation()])?.fragment, 'board-attestation-1');
    assert.equal(revokedLiveKey(new Map([['x', 'y']]), [revocation()]), undefined);
  });
});
