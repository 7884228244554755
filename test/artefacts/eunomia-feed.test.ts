/** The eunomia_data feed: sealed, its root block equal to /root.json, its card index equal to /cards/index.json. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EUNOMIA_FEED_SCHEMA, eunomiaFeed, type FeedInput } from '../../src/core/evidence/eunomia-feed.js';
import { regulationFeed, type RegulationFile } from '../../src/core/status/regulation-feed.js';
import { eunomiaPreview } from '../../src/payments/feed-preview.js';
import { regulationFeedDemo } from '../../demo/status/regulation.js';
import { produceArtefact } from '../../src/payments/artefacts.js';
import {
  AS_OF,
  BASE,
  boardKey,
  context,
  prepared,
  release,
  rootBytesSha256,
  rootJson,
  sealHolds,
  unhealthy,
} from './fixture.js';

type Feed = Record<string, any>;
const feedWith = (over: Parameters<typeof context>[0] = {}) =>
  produceArtefact('eunomia_data', { feed: '1' }, context(over)).artefact as Feed;
const feedInput = (over: Partial<FeedInput> = {}): FeedInput => ({
  as_of: AS_OF,
  baseUrl: BASE,
  active: release.active,
  commissioned_for: { resource: '/api/eunomia-data?feed=1' },
  root: {
    merkle_root: rootJson.merkle_root,
    leaf_count: rootJson.leaf_count,
    as_of: rootJson.as_of,
    sha256: rootBytesSha256,
    sig_ed25519: rootJson.sig_ed25519,
  },
  ...over,
});

describe('eunomia_data feed (svc.eunomia-data/0.2)', () => {
  const feed = feedWith();

  it("has the specification's fields and is sealed under the board key", () => {
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

  it('states the regulation streams it did not read: null value with the reason (a null is never an empty list)', () => {
    // The fixture context passes no regulation feed (the product route passes the release's).
    const f = eunomiaFeed(feedInput(), boardKey) as Feed;
    for (const name of ['signals', 'first_fine_watch']) {
      assert.equal(f.blocks[name].value, null);
      assert.match(f.blocks[name].unreadable, /^unread: .*\/api\/regulation.*not read/);
    }
  });

  it('fills a regulation stream when a value is passed in', () => {
    const f = eunomiaFeed(feedInput({ signals: [{ id: 's1' }] }), boardKey) as Feed;
    assert.deepEqual(f.blocks.signals, { value: [{ id: 's1' }], unreadable: null });
    assert.equal(f.blocks.first_fine_watch.value, null);
  });

  it('fills signals and first_fine_watch from the regulation feed, version-pinned, and seals them', () => {
    const reg = regulationFeedDemo() as RegulationFile;
    const f = eunomiaFeed(feedInput({ regulation: reg }), boardKey) as Feed;
    const pin = { url: `${BASE}/api/regulation`, version: reg.version, verified_as_of: reg.verified_as_of };
    assert.deepEqual(f.blocks.signals, { value: { ...pin, entries: reg.signals }, unreadable: null });
    assert.equal(f.blocks.first_fine_watch.unreadable, null);
    assert.deepEqual(
      f.blocks.first_fine_watch.value.entries.map((w: Feed) => [w.instrument, w.first_fine, w.state]),
      reg.first_fine_watch!.map((w) => [
        w.instrument,
        w.first_fine,
        w.first_fine === null ? 'NO_FINE_RECORDED' : 'FIRST_FINE_RECORDED',
      ]),
    );
    assert.deepEqual(sealHolds(f), { address: true, signature: true });
    // The same entries as GET /api/regulation serves.
    const served = regulationFeed(reg, new Date('2026-11-21T00:00:00Z'));
    assert.deepEqual(f.blocks.signals.value.entries, served.signals);
    assert.deepEqual(f.blocks.first_fine_watch.value.entries, served.first_fine_watch);
  });

  it('a release without a regulation feed: both streams null with the reason; a feed without a block: that stream null', () => {
    const none = eunomiaFeed(feedInput({ regulation: null }), boardKey) as Feed;
    for (const name of ['signals', 'first_fine_watch']) {
      assert.equal(none.blocks[name].value, null);
      assert.match(none.blocks[name].unreadable, /no status\/regulation\.json/);
    }
    const { signals: _s, ...noSignals } = regulationFeedDemo() as RegulationFile;
    const partial = eunomiaFeed(feedInput({ regulation: noSignals }), boardKey) as Feed;
    assert.equal(partial.blocks.signals.value, null);
    assert.match(partial.blocks.signals.unreadable, /no signals block/);
    assert.notEqual(partial.blocks.first_fine_watch.value, null);
    // An empty list in the feed is read: value with zero entries, not null.
    const empty = eunomiaFeed(feedInput({ regulation: { ...noSignals, signals: [] } }), boardKey) as Feed;
    assert.deepEqual(empty.blocks.signals.value.entries, []);
    assert.equal(empty.blocks.signals.unreadable, null);
  });

  it('an explicit stream value takes precedence over the regulation feed', () => {
    const f = eunomiaFeed(
      feedInput({ regulation: regulationFeedDemo() as RegulationFile, first_fine_watch: [{ instrument: 'x' }] }),
      boardKey,
    ) as Feed;
    assert.deepEqual(f.blocks.first_fine_watch, { value: [{ instrument: 'x' }], unreadable: null });
    assert.equal(f.blocks.signals.value.version, regulationFeedDemo().version);
  });

  it('the free preview summarises the same streams: pin and entry counts, or null with the reason', () => {
    const reg = regulationFeedDemo() as RegulationFile;
    const p = eunomiaPreview(release, BASE, reg) as Feed;
    assert.deepEqual(p.streams.signals, {
      value: {
        url: `${BASE}/api/regulation`,
        version: reg.version,
        verified_as_of: reg.verified_as_of,
        entries: reg.signals!.length,
      },
      unreadable: null,
    });
    assert.equal(p.streams.first_fine_watch.value.entries, reg.first_fine_watch!.length);
    const absent = eunomiaPreview(release, BASE, null) as Feed;
    assert.equal(absent.streams.signals.value, null);
    assert.match(absent.streams.signals.unreadable, /no status\/regulation\.json/);
    const unread = eunomiaPreview(release, BASE) as Feed;
    assert.match(unread.streams.first_fine_watch.unreadable, /^unread: /);
  });

  it('binds the signed root: the fields of /root.json, the SHA-256 of its exact bytes and its signature', () => {
    assert.equal(feed.blocks.root.unreadable, null);
    assert.deepEqual(feed.blocks.root.value, {
      root_url: `${BASE}/root.json`,
      root_sha256: rootBytesSha256,
      merkle_root: rootJson.merkle_root,
      leaf_count: rootJson.leaf_count,
      as_of: rootJson.as_of,
      sig_ed25519: rootJson.sig_ed25519,
      signed: true,
    });
  });

  it('indexes every active card with the entries of /cards/index.json, in card-id (root leaf) order', () => {
    const index = JSON.parse(prepared.files.get('/cards/index.json')!.body.toString('utf8')) as {
      cards: { sha256: string }[];
    };
    const v = feed.blocks.card_index.value;
    assert.deepEqual(
      v.cards,
      [...index.cards].sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1)),
    );
    assert.deepEqual(
      v.cards.map((c: { sha256: string }) => c.sha256),
      release.active.map((c) => c.sha256),
    );
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
    assert.ok(
      produceArtefact('eunomia_data', { feed: '1' }, context()).body.equals(
        produceArtefact('eunomia_data', { feed: '1' }, context()).body,
      ),
    );
  });
});
