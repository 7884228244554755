/**
 * GET /api/regulation (svc.regulation-feed/0.1): version-pinned deadlines with their
 * verified-as-of date, reverification due 92 days later (CURRENT, then OVERDUE), `days_until`
 * from a fixed clock, and the honest absence (null blocks with the reason, never empty lists).
 * Also the corpus rules of status/regulation.json.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError, type CorpusProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { buildApp } from '../../src/app.js';
import type { ServedState } from '../../src/serve/served-state.js';
import { regulationFeedDemo, regulationFiles } from '../../demo/status/regulation.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy } from '../helpers/tmp.js';

type Json = Record<string, any>;
const write = (dir: string, path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const DAY = 86_400_000;
/** Whole days from the UTC day of `now` to the ISO date `d`, computed here independently. */
const daysFrom = (now: Date, d: string) =>
  (Date.parse(`${d}T00:00:00Z`) - Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())) / DAY;

/** An app over `state` whose status clock is fixed at `at`. */
function appAt(state: ServedState, at: string) {
  return buildApp({ state, logLevel: 'silent', now: () => new Date(at) });
}

function withRegulation(file: unknown = regulationFeedDemo()): ServedState {
  const dir = demoCopy();
  write(dir, 'status/regulation.json', json(file));
  return demoApp(dir).state;
}

const problems = (dir: string): CorpusProblem[] => {
  try {
    readCorpus(dir);
  } catch (e) {
    assert.ok(e instanceof GspcError && e.code === 'corpus_invalid', String(e));
    return e.details!.problems as CorpusProblem[];
  }
  return assert.fail('the corpus was accepted');
};

describe('regulation feed (GET /api/regulation)', () => {
  const state = withRegulation();
  const demo = regulationFeedDemo();
  const get = async (at: string, url = '/api/regulation') => {
    const app = appAt(state, at);
    const r = await app.inject({ url });
    await app.close();
    return r;
  };

  it('serves the schema, the version pin and every deadline field; satisfies the action contract (schema and deadlines)', async () => {
    const r = await get('2026-11-21T10:00:00Z');
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    const doc = r.json() as Json;
    assert.equal(doc.schema, 'svc.regulation-feed/0.1');
    assert.equal(doc.observed_at, '2026-11-21T10:00:00.000Z');
    assert.equal(doc.version, demo.version);
    assert.equal(doc.verified_as_of, demo.verified_as_of);
    assert.ok(Array.isArray(doc.deadlines));
    assert.equal(doc.deadlines.length, demo.deadlines.length);
    for (const d of doc.deadlines) {
      for (const k of [
        'id',
        'instrument',
        'provision',
        'obligation',
        'applies_from',
        'source',
        'provision_text_sha256',
        'verified_as_of',
        'status',
        'days_until',
        'in_force',
      ])
        assert.ok(k in d, `${d.id}: ${k}`);
      assert.deepEqual(Object.keys(d.source), ['citation', 'url']);
      assert.match(d.provision_text_sha256, /^[0-9a-f]{64}$/);
      if (d.provision_text !== undefined)
        assert.equal(createHash('sha256').update(d.provision_text).digest('hex'), d.provision_text_sha256);
    }
    // Sorted by applies_from: the nearest obligation first.
    assert.deepEqual(
      doc.deadlines.map((d: Json) => d.applies_from),
      [...doc.deadlines.map((d: Json) => d.applies_from)].sort(),
    );
    assert.match(doc.sources_note, /never fetches/);
  });

  it('days_until is live from the clock: positive before, 0 on the day (in force), negative after', async () => {
    for (const at of ['2026-11-21T10:00:00Z', '2027-12-10T23:59:59Z', '2027-12-11T00:00:00Z', '2028-01-01T12:00:00Z']) {
      const doc = (await get(at)).json() as Json;
      for (const d of doc.deadlines) {
        const want = daysFrom(new Date(at), d.applies_from);
        assert.equal(d.days_until, want, `${d.id} at ${at}`);
        assert.equal(d.in_force, want <= 0, `${d.id} at ${at}`);
      }
    }
    const cra = async (at: string) =>
      ((await get(at)).json() as Json).deadlines.find((d: Json) => d.id === 'cra-application');
    assert.deepEqual(
      [(await cra('2027-12-10T23:59:59Z')).days_until, (await cra('2027-12-10T23:59:59Z')).in_force],
      [1, false],
    );
    assert.deepEqual(
      [(await cra('2027-12-11T00:00:00Z')).days_until, (await cra('2027-12-11T00:00:00Z')).in_force],
      [0, true],
    );
    assert.deepEqual(
      [(await cra('2027-12-12T08:00:00Z')).days_until, (await cra('2027-12-12T08:00:00Z')).in_force],
      [-1, true],
    );
  });

  it('reverification is due 92 days after verified_as_of: CURRENT through the due day, OVERDUE from the next', async () => {
    const due = new Date(Date.parse(`${demo.verified_as_of}T00:00:00Z`) + 92 * DAY).toISOString().slice(0, 10);
    assert.equal(due, '2027-02-01');
    const current = ((await get('2027-02-01T23:59:59Z')).json() as Json).reverification;
    assert.deepEqual(current, { policy: demo.reverify_policy, period_days: 92, due_by: due, state: 'CURRENT' });
    const overdue = ((await get('2027-02-02T00:00:00Z')).json() as Json).reverification;
    assert.deepEqual(overdue, {
      policy: demo.reverify_policy,
      period_days: 92,
      due_by: due,
      state: 'OVERDUE',
      days_overdue: 1,
    });
    assert.equal(((await get('2027-03-03T00:00:00Z')).json() as Json).reverification.days_overdue, 30);
  });

  it('counts in force and upcoming deadlines from the same clock', async () => {
    const doc = (await get('2026-11-21T10:00:00Z')).json() as Json;
    const inForce = doc.deadlines.filter((d: Json) => d.in_force).length;
    assert.deepEqual(doc.counts, {
      deadlines: doc.deadlines.length,
      in_force: inForce,
      upcoming: doc.deadlines.length - inForce,
    });
  });

  it('serves enforcement signals and the first-fine watch; a recorded first fine names its signal and date', async () => {
    const doc = (await get('2026-11-21T10:00:00Z')).json() as Json;
    assert.deepEqual(doc.signals, demo.signals);
    assert.equal(doc.first_fine_watch.length, demo.first_fine_watch.length);
    for (const w of doc.first_fine_watch) {
      const s = demo.signals.find((x) => x.id === w.first_fine);
      if (w.first_fine === null) assert.equal(w.state, 'NO_FINE_RECORDED');
      else assert.deepEqual([w.state, w.first_fine_date], ['FIRST_FINE_RECORDED', s!.date]);
    }
    assert.ok(doc.first_fine_watch.some((w: Json) => w.state === 'FIRST_FINE_RECORDED'));
  });

  it('a query parameter is a 400 bad_query', async () => {
    const r = await get('2026-11-21T10:00:00Z', '/api/regulation?version=1');
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().code, 'bad_query');
  });
});

describe('regulation feed: what is not read is null with the reason', () => {
  it('without status/regulation.json: 200, every block null and the reason; schema and deadlines keys present', async () => {
    const dir = demoCopy();
    rmSync(join(dir, 'status', 'regulation.json'), { force: true });
    const app = appAt(demoApp(dir).state, '2026-11-21T10:00:00Z');
    const r = await app.inject({ url: '/api/regulation' });
    await app.close();
    assert.equal(r.statusCode, 200);
    const doc = r.json() as Json;
    assert.equal(doc.schema, 'svc.regulation-feed/0.1');
    assert.ok('deadlines' in doc);
    for (const k of ['version', 'verified_as_of', 'reverification', 'deadlines', 'signals', 'first_fine_watch'])
      assert.equal(doc[k], null, k);
    assert.match(doc.reason, /^unread: .*status\/regulation\.json/);
  });

  it('a feed without signals or first_fine_watch leaves those blocks null with their reason; an empty list is read and empty', async () => {
    const { signals: _s, first_fine_watch: _w, ...bare } = regulationFeedDemo();
    const app = appAt(withRegulation(bare), '2026-11-21T10:00:00Z');
    const doc = (await app.inject({ url: '/api/regulation' })).json() as Json;
    assert.equal(doc.signals, null);
    assert.match(doc.signals_reason, /no signals block/);
    assert.equal(doc.first_fine_watch, null);
    assert.match(doc.first_fine_watch_reason, /no first_fine_watch block/);
    await app.close();
    const empty = appAt(withRegulation({ ...bare, signals: [], first_fine_watch: [] }), '2026-11-21T10:00:00Z');
    const e = (await empty.inject({ url: '/api/regulation' })).json() as Json;
    assert.deepEqual(
      [e.signals, e.first_fine_watch, e.signals_reason, e.first_fine_watch_reason],
      [[], [], undefined, undefined],
    );
    await empty.close();
  });
});

describe('status/regulation.json rules', () => {
  const withFile = (edit: (f: Json) => void) => {
    const dir = demoCopy();
    const f = structuredClone(regulationFeedDemo()) as Json;
    edit(f);
    write(dir, 'status/regulation.json', json(f));
    return problems(dir).filter((p) => p.file === 'status/regulation.json');
  };

  it('the demo file is valid and deterministic', () => {
    const dir = demoCopy();
    for (const [p, t] of regulationFiles()) write(dir, p, t);
    assert.ok(readCorpus(dir).status.regulation);
    assert.deepEqual(regulationFiles(), regulationFiles());
  });

  it('refuses a pinned text that does not match its hash, a bad date, a duplicate id', () => {
    assert.ok(
      withFile((f) => {
        f.deadlines[0].provision_text += ' (edited)';
      }).some((p) => p.field === 'deadlines.0.provision_text_sha256'),
    );
    assert.ok(
      withFile((f) => {
        f.deadlines[1].applies_from = '2026-02-30';
      }).some((p) => p.field === 'deadlines.1.applies_from'),
    );
    assert.ok(
      withFile((f) => {
        f.deadlines[1].id = f.deadlines[0].id;
      }).some((p) => p.field === 'deadlines' && /same id/.test(p.reason)),
    );
    assert.ok(
      withFile((f) => {
        f.deadlines[0].status = 'MAYBE';
      }).some((p) => p.field === 'deadlines.0.status'),
    );
    assert.ok(
      withFile((f) => {
        delete f.version;
      }).some((p) => p.field === 'version'),
    );
  });

  it('refuses a first fine that is missing, not a fine, or under another instrument', () => {
    assert.ok(
      withFile((f) => {
        f.first_fine_watch[0].first_fine = 'no-such-signal';
      }).some((p) => p.field === 'first_fine_watch.0.first_fine' && /not in signals/.test(p.reason)),
    );
    assert.ok(
      withFile((f) => {
        f.signals[0].kind = 'guidance';
      }).some((p) => /not a fine/.test(p.reason)),
    );
    assert.ok(
      withFile((f) => {
        f.first_fine_watch[0].first_fine = f.signals[0].id;
      }).some((p) => /not '/.test(p.reason)),
    );
  });

  it('refuses a deadline verified after the feed itself', () => {
    assert.ok(
      withFile((f) => {
        f.deadlines[0].verified_as_of = '2026-12-01';
      }).some((p) => p.field === 'deadlines.0.verified_as_of'),
    );
  });
});
