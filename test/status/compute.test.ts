/**
 * GET /api/compute (specification, "Compute bridge", svc.compute-bridge/1): every field of the
 * specification's table, the census recomputed here from the corpus bytes, the census absent
 * (null with a reason) and the corpus problems of a bad census.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { censusFiles } from '../../demo/status/census.js';
import type { CorpusProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy } from '../helpers/tmp.js';

const META = 'status/census.json';
const JSONL = 'status/census.jsonl';

/** A copy of the demo corpus with `files` as its census (none: no census at all). */
function corpusWith(files: [string, string][]): string {
  const dir = demoCopy();
  rmSync(join(dir, META), { force: true });
  rmSync(join(dir, JSONL), { force: true });
  for (const [p, t] of files) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  return dir;
}

function problemsOf(dir: string): CorpusProblem[] {
  try {
    readCorpus(dir);
  } catch (e) {
    return (e as { details?: { problems?: CorpusProblem[] } }).details?.problems ?? [];
  }
  assert.fail('the corpus was accepted');
}

const metaOf = (over: Record<string, unknown> = {}) =>
  `${JSON.stringify({ ...JSON.parse(censusFiles().find(([p]) => p === META)![1]), ...over }, null, 2)}\n`;
const withLines = (lines: string[], meta = metaOf()): [string, string][] => [
  [META, meta],
  [JSONL, `${lines.join('\n')}\n`],
];
const listing = (id: string, lastModified = '2026-01-14T11:00:00.000Z', extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, lastModified, ...extra });

describe('GET /api/compute', () => {
  it('serves every field of the specification table, the census computed from the corpus bytes', async () => {
    const dir = corpusWith(censusFiles());
    const { app } = demoApp(dir);
    const res = await app.inject({ method: 'GET', url: '/api/compute' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    const doc = res.json();
    assert.equal(doc.schema, 'svc.compute-bridge/1');
    assert.deepEqual(Object.keys(doc).sort(), [
      'agui',
      'census',
      'contract',
      'os',
      'pod',
      'schema',
      'terminal',
      'title',
    ]);
    assert.equal(typeof doc.title, 'string');

    // contract
    assert.deepEqual(Object.keys(doc.contract).sort(), [
      'never',
      'owner_gate',
      'quote_agui_from',
      'quote_census_from',
      'ruling',
    ]);
    for (const k of ['ruling', 'quote_census_from', 'quote_agui_from', 'owner_gate'])
      assert.ok(typeof doc.contract[k] === 'string' && doc.contract[k].length > 0, k);
    assert.deepEqual(doc.contract.never, [
      'MEASURED',
      'a fused grade',
      'a remembered host address as established',
      'a live probe copied onto the state endpoint',
    ]);

    // census, recomputed from the bytes the corpus holds
    const bytes = readFileSync(join(dir, JSONL));
    const ids = new Set(
      bytes
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l).id as string),
    );
    const lines = bytes
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '').length;
    assert.ok(ids.size < lines, 'the demo lists one id twice, so distinct ids are fewer than lines');
    const meta = JSON.parse(readFileSync(join(dir, META), 'utf8'));
    const c = doc.census;
    assert.deepEqual(
      Object.keys(c).sort(),
      [
        'as_of',
        'as_of_field',
        'complete',
        'complete_reason',
        'kind',
        'listing_state_all',
        'n_measured',
        'n_unique_ids',
        'note',
        'pages_done',
        'sha256_jsonl',
        'source',
        'status_all',
      ].sort(),
    );
    assert.equal(c.kind, 'catalogued');
    assert.equal(c.n_unique_ids, ids.size);
    assert.ok(Number.isInteger(c.n_unique_ids));
    assert.equal(c.sha256_jsonl, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(c.n_measured, 0);
    assert.equal(c.listing_state_all, 'DISCOVERED');
    assert.equal(c.status_all, 'UNMEASURED');
    for (const k of ['source', 'as_of', 'as_of_field', 'pages_done', 'complete', 'complete_reason', 'note'])
      assert.deepEqual(c[k], meta[k], k);
    assert.equal(typeof c.complete, 'boolean');

    // agui, terminal, pod, os
    assert.deepEqual(
      { ...doc.agui, hint: typeof doc.agui.hint },
      { configured: false, status: 'unconfigured', http: null, hint: 'string', target: null },
    );
    assert.deepEqual(doc.terminal.terminal_fns, [
      'VERIFY',
      'BOARD',
      'AXIS',
      'CENSUS',
      'CORRECT',
      'WATCH',
      'COMPUTE',
      'HELP',
    ]);
    assert.equal(typeof doc.terminal.ruling, 'string');
    assert.match(doc.terminal.census_fn, /records a listing and does not grade/);
    assert.equal(doc.pod.inventory_kind, 'unmeasured');
    assert.match(doc.pod.note, /a running pod is not a measurement/i);
    assert.deepEqual(doc.os.doors, ['board', 'verify', 'space', 'assess', 'harness']);
    assert.match(doc.os.harness, /13 free readers plus 4 metered evidence tools over MCP/);
    assert.equal(doc.os.view_only, true);
  });

  it('counts what the bytes hold: another census gives other numbers', async () => {
    const lines = [
      listing('a/x'),
      listing('a/y', '2026-01-01T00:00:00.000Z'),
      listing('a/x'),
      listing('b/z', '2025-01-01T00:00:00Z'),
    ];
    const dir = corpusWith(
      withLines(lines, metaOf({ complete: false, complete_reason: 'stopped after one page', pages_done: 1 })),
    );
    const doc = (await demoApp(dir).app.inject({ method: 'GET', url: '/api/compute' })).json();
    assert.equal(doc.census.n_unique_ids, 3);
    assert.equal(
      doc.census.sha256_jsonl,
      createHash('sha256')
        .update(readFileSync(join(dir, JSONL)))
        .digest('hex'),
    );
    assert.equal(doc.census.complete, false);
    assert.equal(doc.census.complete_reason, 'stopped after one page');
    assert.equal(doc.census.n_measured, 0);
  });

  it('without census files: census null with the reason, never an empty census', async () => {
    const { app } = demoApp(corpusWith([]));
    const doc = (await app.inject({ method: 'GET', url: '/api/compute' })).json();
    assert.equal(doc.census, null);
    assert.match(doc.census_unread_reason, /no catalogued census/);
    assert.equal(doc.schema, 'svc.compute-bridge/1');
  });

  it('takes no query parameters', async () => {
    const { app } = demoApp(corpusWith(censusFiles()));
    const res = await app.inject({ method: 'GET', url: '/api/compute?census=all' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'bad_query');
  });
});

describe('census corpus problems', () => {
  it('names the line of invalid JSON and of a listing without an id', () => {
    const problems = problemsOf(
      corpusWith(withLines([listing('a/x'), '{"id": "a/y",', JSON.stringify({ name: 'no id' })])),
    );
    assert.ok(
      problems.some((p) => p.file === JSONL && p.line === 2 && /invalid JSON/.test(p.reason)),
      JSON.stringify(problems),
    );
    assert.ok(
      problems.some((p) => p.file === JSONL && p.line === 3 && p.field === 'id'),
      JSON.stringify(problems),
    );
  });

  it('refuses a listing that claims MEASURED or carries a grade', () => {
    const problems = problemsOf(
      corpusWith(
        withLines([
          listing('a/x'),
          listing('a/y', undefined, { status: 'MEASURED' }),
          listing('a/z', undefined, { grade: 0.91 }),
          listing('a/w', undefined, { listing_state: 'VERIFIED' }),
        ]),
      ),
    );
    assert.deepEqual(
      problems.map((p) => [p.line, p.field]),
      [
        [2, 'status'],
        [3, 'grade'],
        [4, 'listing_state'],
      ],
    );
    assert.match(problems[0]!.reason, /DISCOVERED, and its status UNMEASURED/);
  });

  it('accepts a listing that says UNMEASURED', () => {
    assert.doesNotThrow(() =>
      readCorpus(
        corpusWith(withLines([listing('a/x', undefined, { status: 'UNMEASURED', listing_state: 'DISCOVERED' })])),
      ),
    );
  });

  it('refuses one census file without the other, and a typed as_of the listing does not bear out', () => {
    const [meta, jsonl] = censusFiles();
    assert.deepEqual(
      problemsOf(corpusWith([meta!])).map((p) => p.file),
      [JSONL],
    );
    assert.deepEqual(
      problemsOf(corpusWith([jsonl!])).map((p) => p.file),
      [META],
    );
    const asOf = problemsOf(corpusWith(withLines([listing('a/x')], metaOf({ as_of: '2026-02-01T00:00:00Z' }))));
    assert.deepEqual(
      asOf.map((p) => [p.file, p.field]),
      [[META, 'as_of']],
    );
    const field = problemsOf(corpusWith(withLines([listing('a/x')], metaOf({ as_of_field: 'createdAt' }))));
    assert.deepEqual(
      field.map((p) => [p.file, p.field]),
      [[META, 'as_of_field']],
    );
  });

  it('refuses census.json fields of the wrong type', () => {
    const problems = problemsOf(corpusWith(withLines([listing('a/x')], metaOf({ complete: 'yes', n_unique_ids: 5 }))));
    assert.ok(
      problems.some((p) => p.file === META && p.field === 'complete'),
      JSON.stringify(problems),
    );
    // The count is computed, never typed: an extra key is refused.
    assert.ok(
      problems.some((p) => p.file === META && /n_unique_ids/.test(p.reason + p.field)),
      JSON.stringify(problems),
    );
  });
});
