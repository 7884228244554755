/**
 * What a reader is told changed (issue 31): `GET /api/changes` holds the served release's changes
 * against its predecessor in the log, as `gspc diff` names them, and `GET /feed.atom` has one
 * entry per release and per correction, linking to the signed evidence. The feed is read back
 * with a maintained feed parser (@rowanmanning/feed-parser), not our own.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseFeed } from '@rowanmanning/feed-parser';
import { buildApp } from '../../src/app.js';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveOf } from '../../src/service.js';
import { gspc } from '../helpers/cli.js';
import { ADDED_CORRECTION, editedDemo } from '../helpers/edited-demo.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */
type Json = any;

const ORIGIN = 'http://localhost:8771';
const data = tempDir();
const ids: string[] = [];
const appFor = (i: number) =>
  buildApp({
    state: new ServedState(
      loadRelease(join(data, 'releases', ids[i]!)),
      liveOf(signingContext(join(data, 'keys'), 'localhost:8771')),
    ),
    logLevel: 'silent',
    baseUrl: ORIGIN,
  });

describe('/api/changes and /feed.atom', () => {
  let latest: ReturnType<typeof buildApp>;
  let first: ReturnType<typeof buildApp>;
  before(async () => {
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    for (const corpus of [demoCorpus, editedDemo()]) {
      const r = await gspc(['publish', corpus, '--data-dir', data, '--public-url', ORIGIN]);
      assert.equal(r.status, 0, r.stderr);
      ids.push(/^published (r-[0-9a-f]{20})/.exec(r.stdout)![1]!);
    }
    [first, latest] = [appFor(0), appFor(1)];
  });
  after(async () => {
    await first.close();
    await latest.close();
  });

  it('GET /api/changes: the served release against the one before it, as gspc diff names the changes', async () => {
    const r = await latest.inject({ method: 'GET', url: '/api/changes' });
    assert.equal(r.statusCode, 200);
    assert.ok(r.headers.etag);
    const doc = r.json() as Json;
    assert.equal(doc.schema, 'svc.release-changes/1');
    assert.deepEqual([doc.release, doc.predecessor], [ids[1], ids[0]]);
    assert.deepEqual(doc.diff.axes.changed[0], {
      axis: 'governance',
      field: 'leader',
      from: 'demo/atlas-70b',
      to: 'demo/borealis-34b',
    });
    assert.equal(doc.diff.cards.withdrawn.length, 4);
    assert.deepEqual(
      doc.diff.corrections.added.map((c: Json) => c.id),
      [ADDED_CORRECTION],
    );
    const cli = await gspc(['diff', join(data, 'releases', ids[0]!), join(data, 'releases', ids[1]!), '--json']);
    // Less what only gspc diff adds: each side's DID and log, and which way it reads (decision DF3).
    const named = JSON.parse(cli.stdout, (k, v) => (['did', 'log', 'direction'].includes(k) ? undefined : v));
    assert.deepEqual(doc.diff, named, 'the same document as gspc diff --json');
  });

  it('the first release of a log says it has no predecessor, and why', async () => {
    const doc = (await first.inject({ method: 'GET', url: '/api/changes' })).json() as Json;
    assert.deepEqual([doc.release, doc.predecessor, doc.diff], [ids[0], null, null]);
    assert.match(doc.reason, /no earlier release of this log is held here/);
  });

  it('GET /feed.atom parses with a maintained feed parser: one entry per release and per correction, with links to the evidence', async () => {
    const r = await latest.inject({ method: 'GET', url: '/feed.atom' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-type'], 'application/atom+xml; charset=utf-8');
    const feed = parseFeed(r.body);
    assert.equal(feed.meta.type, 'atom');
    assert.match(feed.title ?? '', /^Releases and corrections: SYNTHETIC DEMO/);
    assert.equal(feed.self, `${ORIGIN}/feed.atom`);
    const byId = new Map(feed.items.map((i) => [i.id, i]));
    const release = byId.get(`urn:gspc:release:${ids[1]}`)!;
    assert.equal(release.url, `${ORIGIN}/api/changes`);
    assert.match(release.content ?? '', /governance: leader "demo\/atlas-70b" → "demo\/borealis-34b"/);
    assert.ok(byId.has(`urn:gspc:release:${ids[0]}`));
    const correction = byId.get(`urn:gspc:correction:${ADDED_CORRECTION}`)!;
    assert.equal(correction.url, `${ORIGIN}/corrections/${ADDED_CORRECTION}.json`);
    assert.equal(correction.updated?.toISOString(), '2026-11-20T08:00:00.000Z');
    assert.equal(feed.items.length, 2 + 6, 'two releases, the five demo corrections and the added one');
    const corrections = await latest.inject({ method: 'GET', url: `/corrections/${ADDED_CORRECTION}.json` });
    assert.equal(corrections.statusCode, 200, 'every correction entry links to a served file');
  });
});
