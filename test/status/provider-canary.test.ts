/**
 * GET /api/provider-canary (rails model-hub-provider-execution and pod-execution): UNCHECKABLE
 * 'provider adapter is unconfigured' without an adapter; with the operator's observation file,
 * each state and its reason. Never MEASURED, never a measurement.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { NO_SOURCES } from '../../src/serve/context.js';
import { CANARY_FRESHNESS_SECONDS, CANARY_MAX_BYTES } from '../../src/core/status/provider-canary.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const ago = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString();
const obs = (ran_at: string, outcome = 'PASS', extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    provider: 'example-provider',
    model: 'example/model-1',
    ran_at,
    outcome,
    latency_ms: 840,
    note: 'canary prompt answered',
    ...extra,
  });

describe('GET /api/provider-canary', () => {
  const { state } = demoApp();
  const dir = tempDir();
  const appWith = (providerCanaryFile: string | null) => {
    const app = buildApp({ state, logLevel: 'silent', now: () => NOW, sources: { ...NO_SOURCES, providerCanaryFile } });
    after(() => app.close());
    return app;
  };
  let n = 0;
  const fileWith = (text: string | Buffer) => {
    const p = join(dir, `canary-${n++}.jsonl`);
    writeFileSync(p, text);
    return p;
  };
  const get = async (file: string | null) => {
    const res = await appWith(file).inject({ method: 'GET', url: '/api/provider-canary' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.doesNotMatch(res.body, /"MEASURED"/);
    const doc = res.json();
    assert.equal(doc.schema, 'svc.provider-canary/0.1');
    assert.equal(doc.observed_at, NOW.toISOString());
    assert.equal(doc.measurement, false);
    assert.deepEqual(doc.rails, ['model-hub-provider-execution', 'pod-execution']);
    return doc;
  };

  it('without an adapter: UNCHECKABLE, provider adapter is unconfigured, adapter null', async () => {
    const doc = await get(null);
    assert.equal(doc.state, 'UNCHECKABLE');
    assert.equal(doc.last_error, 'provider adapter is unconfigured');
    assert.equal(doc.adapter, null);
    assert.equal(doc.latest, null);
  });

  it('a recent PASS: RUNTIME_OBSERVED, the latest observation by ran_at with its age', async () => {
    const text = `${obs(ago(7200))}\n${obs(ago(120), 'PASS', { model: 'example/model-2' })}\n${obs(ago(3000))}\n`;
    const doc = await get(fileWith(text));
    assert.equal(doc.state, 'RUNTIME_OBSERVED');
    assert.equal(doc.last_error, null);
    assert.equal(doc.latest.model, 'example/model-2');
    assert.equal(doc.latest.age_seconds, 120);
    assert.equal(doc.adapter.kind, 'operator-canary-file');
    assert.equal(doc.adapter.observations, 3);
    assert.equal(doc.adapter.sha256, createHash('sha256').update(text).digest('hex'));
    assert.equal(doc.freshness_window_seconds, CANARY_FRESHNESS_SECONDS);
  });

  it('a stale observation: UNCHECKABLE with its age', async () => {
    const doc = await get(fileWith(`${obs(ago(CANARY_FRESHNESS_SECONDS + 1))}\n`));
    assert.equal(doc.state, 'UNCHECKABLE');
    assert.match(doc.last_error, new RegExp(`${CANARY_FRESHNESS_SECONDS + 1} s old`));
    assert.equal(doc.latest.age_seconds, CANARY_FRESHNESS_SECONDS + 1);
  });

  it("a recent FAIL: UNREACHABLE with the runner's note", async () => {
    const doc = await get(
      fileWith(`${obs(ago(600))}\n${obs(ago(60), 'FAIL', { note: 'HTTP 503 from the provider' })}\n`),
    );
    assert.equal(doc.state, 'UNREACHABLE');
    assert.match(doc.last_error, /FAILED .*HTTP 503 from the provider/);
  });

  it('an observation dated ahead of the clock is not believed', async () => {
    const doc = await get(fileWith(`${obs(new Date(NOW.getTime() + 3600_000).toISOString())}\n`));
    assert.equal(doc.state, 'UNCHECKABLE');
    assert.match(doc.last_error, /dated after observed_at/);
  });

  it('an invalid line refuses the file, naming the line', async () => {
    const cases: [string, RegExp][] = [
      [`${obs(ago(60))}\n{"provider":\n`, /line 2: invalid JSON/],
      [`${obs(ago(60), 'MEASURED')}\n`, /line 1: outcome: must be PASS or FAIL/],
      [`${obs(ago(60), 'PASS', { grade: 1 })}\n`, /line 1: unknown field 'grade'/],
      [`${obs(ago(60), 'PASS', { latency_ms: 1.5 })}\n`, /latency_ms/],
      [`${obs('2026-03-01 11:59:00')}\n`, /ran_at/],
    ];
    for (const [text, reason] of cases) {
      const doc = await get(fileWith(text));
      assert.equal(doc.state, 'UNCHECKABLE', text);
      assert.match(doc.last_error, reason);
      assert.equal(doc.adapter.observations, null);
      assert.equal(doc.latest, null);
    }
  });

  it('an empty file: UNCHECKABLE, no observation yet', async () => {
    const doc = await get(fileWith(''));
    assert.equal(doc.state, 'UNCHECKABLE');
    assert.equal(doc.last_error, 'no canary observation recorded yet');
    assert.equal(doc.adapter.observations, 0);
  });

  it('an unreadable adapter: UNREACHABLE with the reason (missing, a directory, too large)', async () => {
    const missing = await get(join(dir, 'no-such-file.jsonl'));
    assert.equal(missing.state, 'UNREACHABLE');
    assert.match(missing.last_error, /unreadable: ENOENT/);
    assert.deepEqual(missing.adapter, { kind: 'operator-canary-file', sha256: null, observations: null });
    const sub = join(dir, 'a-directory');
    mkdirSync(sub);
    assert.match((await get(sub)).last_error, /unreadable: (not a regular file|EISDIR)/);
    const big = await get(fileWith(Buffer.alloc(CANARY_MAX_BYTES + 1, 0x20)));
    assert.equal(big.state, 'UNREACHABLE');
    assert.match(big.last_error, /limit/);
  });

  it('takes no query parameters', async () => {
    const res = await appWith(null).inject({ method: 'GET', url: '/api/provider-canary?file=/etc/passwd' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'bad_query');
  });
});
