/** The eunomia_data feed: sealed, its root block equal to /root.json, its card index equal to /cards/index.json. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EUNOMIA_FEED_SCHEMA, eunomiaFeed } from '../../src/core/evidence/eunomia-feed.js';
import { produceArtefact } from '../../src/payments/artefacts.js';
import { AS_OF, BASE, boardKey, context, prepared, release, rootBytesSha256, rootJson, sealHolds, unhealthy } from './fixture.js';

type Feed = Record<string, any>;
const feedWith = (over: Parameters<typeof context>[0] = {}) => produceArtefact('eunomia_data', { feed: '1' }, context(over)).artefact as Feed;

describe('eunomia_data feed (svc.eunomia-data/0.2)', () => {
  const feed = feedWith();

  it('has the specification\'s fields and is sealed under the board key', () => {
    assert.equal(feed.schema, EUNOMIA_FEED_SCHEMA);
    assert.equal(feed.kind, 'feed');
    assert.equal(feed.as_of, AS_OF);
    assert.equal(feed.lane, 'commercial-data');
    assert.equal(feed.data_only, true);
    assert.deepEqual(Object.keys(feed.blocks), ['signals', 'first_fine_watch', 'root', 'card_index']);
    assert.deepEqual(feed.commissioned_for, context().commissionedFor);
    assert.deepEqual(sealHolds(feed), { address: true, signature: true });
    const changed = structuredClone(feed);
    changed.blocks.card_index.value.cards.pop();
    assert.equal(sealHolds(changed).address, false);
  });

  it('states the regulation streams it cannot read: null value with the reason', () => {
    for (const name of ['signals', 'first_fine_watch']) {
      assert.equal(feed.blocks[name].value, null);
      assert.match(feed.blocks[name].unreadable, /not published by this service yet/);
    }
  });

  it('fills a regulation stream when a value is passed in', () => {
    const root = { merkle_root: rootJson.merkle_root, leaf_count: rootJson.leaf_count, as_of: rootJson.as_of, sha256: rootBytesSha256, sig_ed25519: rootJson.sig_ed25519 };
    const f = eunomiaFeed({ as_of: AS_OF, baseUrl: BASE, root, active: release.active, signals: [{ id: 's1' }], commissioned_for: { resource: '/api/eunomia-data?feed=1' } }, boardKey) as Feed;
    assert.deepEqual(f.blocks.signals, { value: [{ id: 's1' }], unreadable: null });
    assert.equal(f.blocks.first_fine_watch.value, null);
  });

  it('binds the signed root: the fields of /root.json, the SHA-256 of its exact bytes and its signature', () => {
    assert.equal(feed.blocks.root.unreadable, null);
    assert.deepEqual(feed.blocks.root.value, {
      root_url: `${BASE}/root.json`, root_sha256: rootBytesSha256, merkle_root: rootJson.merkle_root, leaf_count: rootJson.leaf_count,
      as_of: rootJson.as_of, sig_ed25519: rootJson.sig_ed25519, signed: true,
    });
  });

  it('indexes every active card with the entries of /cards/index.json, in card-id (root leaf) order', () => {
    const index = JSON.parse(prepared.files.get('/cards/index.json')!.body.toString('utf8')) as { cards: { sha256: string }[] };
    const v = feed.blocks.card_index.value;
    assert.deepEqual(v.cards, [...index.cards].sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1)));
    assert.deepEqual(v.cards.map((c: { sha256: string }) => c.sha256), release.active.map((c) => c.sha256));
    assert.equal(v.active_cards, release.active.length);
    assert.equal(v.signed_cards, release.active.filter((c) => c.sig_ed25519 !== null).length);
  });

  it('with an unhealthy key: null signature and the reason', () => {
    const u = feedWith({ boardKey: unhealthy });
    assert.equal(u.sig_ed25519, null);
    assert.equal(u.unsigned_reason, 'the key file is readable by others');
    assert.deepEqual(sealHolds(u), { address: true, signature: false });
  });

  it('is deterministic', () => {
    assert.ok(produceArtefact('eunomia_data', { feed: '1' }, context()).body.equals(produceArtefact('eunomia_data', { feed: '1' }, context()).body));
  });
});
