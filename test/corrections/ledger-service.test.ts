/**
 * The corrections ledger as served and published: GET /api/corrections against the
 * specification's field list, the original entry files byte for byte, the never-edited rule at
 * publish, and `gspc corrections sign` moving the signature through CURRENT, STALE and INVALID.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { main } from '../../src/cli/main.js';
import { signCorrections } from '../../src/cli/corrections-commands.js';
import { GspcError, type CorpusProblem } from '../../src/core/errors.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import type { ServedState } from '../../src/serve/served-state.js';
import { correctionsFiles } from '../../demo/status/corrections.js';
import { demoApp, testSigning, TEST_DID_HOST } from '../helpers/app.js';
import { demoCopy } from '../helpers/tmp.js';

const SIGNED_AT = new Date('2026-04-02T10:00:00Z');

/** A copy of the demo corpus with the demo corrections ledger written into it. */
function corpusWithLedger(): string {
  const dir = demoCopy();
  rmSync(join(dir, 'corrections'), { recursive: true, force: true });
  for (const [p, t] of correctionsFiles()) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  return dir;
}

const entryPath = (dir: string, id: string) => join(dir, 'corrections', 'entries', `${id}.json`);

function newEntry(id: string, date: string): string {
  return `${JSON.stringify(
    {
      id,
      date,
      detected_at: `${date}T08:00:00Z`,
      detected_by: 'internal audit',
      published_at: `${date}T09:00:00Z`,
      timing_evidence: ['SYNTHETIC: test'],
      what_was_wrong: 'SYNTHETIC: a',
      why_it_was_wrong: 'SYNTHETIC: b',
      how_caught: 'SYNTHETIC: c',
      what_changed: 'SYNTHETIC: d',
      status: 'CORRECTED (SYNTHETIC)',
      reached_the_public: false,
      evidence: [],
    },
    null,
    2,
  )}\n`;
}

async function getLedger(app: FastifyInstance): Promise<Record<string, any>> {
  const res = await app.inject({ method: 'GET', url: '/api/corrections' });
  assert.equal(res.statusCode, 200);
  return res.json() as Record<string, any>;
}

function republish(state: ServedState, corpus: string, dataDir: string, signing: ReturnType<typeof testSigning>): void {
  state.swap(loadRelease(publishRelease(corpus, dataDir, signing.inputs).dir));
}

function refusal(fn: () => unknown): CorpusProblem[] {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof GspcError);
    assert.equal(err.code, 'corpus_invalid');
    return err.details!.problems as CorpusProblem[];
  }
  assert.fail('expected corpus_invalid');
}

describe('GET /api/corrections', () => {
  const corpus = corpusWithLedger();
  const { app } = demoApp(corpus);

  it('serves svc.corrections/0.1 with every top-level and entry field of the specification', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/corrections' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['cache-control'], 'public, max-age=60');
    const doc = res.json() as Record<string, any>;
    assert.equal(doc.schema, 'svc.corrections/0.1');
    for (const k of [
      'schema',
      'policy',
      'license',
      'publisher',
      'timing_fields',
      'corrections',
      'signature',
      'originals',
    ])
      assert.ok(k in doc, k);
    assert.equal(doc.license, 'CC-BY-4.0');
    assert.equal(doc.ledger_published, true);
    assert.equal(typeof doc.timing_fields.correction_latency, 'string');
    assert.equal(doc.corrections.length, 5);
    const required = [
      'id',
      'date',
      'detected_at',
      'detected_by',
      'published_at',
      'timing_evidence',
      'what_was_wrong',
      'why_it_was_wrong',
      'how_caught',
      'status',
      'reached_the_public',
      'evidence',
      'correction_latency',
    ];
    for (const c of doc.corrections) {
      for (const k of required) assert.ok(k in c, `${c.id} lacks ${k}`);
      assert.ok('what_changed' in c || 'fix' in c, c.id);
      assert.match(c.id, /^C-\d{4}-\d{4}-\d{2}$/);
      assert.match(c.date, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(
        ['internal audit', 'internal monitor', 'persona test', 'external report', 'self-report', 'UNRECORDED'].includes(
          c.detected_by,
        ),
      );
      assert.match(c.status, /^(CORRECTED|WITHDRAWN|RECORDED|SUPERSEDED|RETRACTED|OPEN)\b/);
      assert.equal(typeof c.reached_the_public, 'boolean');
      assert.ok(Array.isArray(c.timing_evidence) && Array.isArray(c.evidence));
      assert.equal(c.correction_latency.signed, false);
      assert.ok(!('time_to_correct' in c), 'time_to_correct is never stored');
    }
    const byId = new Map<string, any>(doc.corrections.map((c: any) => [c.id, c]));
    assert.equal(byId.get('C-2026-0302-01').correction_latency.seconds, 30630);
    assert.deepEqual(
      [
        byId.get('C-2026-0318-01').correction_latency.upper_bound_seconds,
        byId.get('C-2026-0318-01').correction_latency.lower_bound_seconds,
      ],
      [345600, 108000],
    );
    assert.ok(byId.get('C-2026-0318-01').detected_window.basis);
    assert.equal(byId.get('C-2026-0325-01').correction_latency.kind, 'UNMEASURED');
    assert.match(byId.get('C-2026-0318-01').status, /^WITHDRAWN/);
    assert.deepEqual(byId.get('C-2026-0310-01').text_superseded_by.id, 'C-2026-0401-01');
    assert.deepEqual(Object.keys(byId.get('C-2026-0401-01').supersedes_text), ['id', 'field', 'original_sha256']);
    assert.deepEqual(doc.signature, { state: 'UNSIGNED', kid: null, signed_at: null, reason: doc.signature.reason });
    assert.deepEqual(
      doc.originals.map((o: any) => o.url),
      doc.corrections.map((c: any) => `/corrections/${c.id}.json`),
    );
    assert.ok(!JSON.stringify(doc).includes('internal_identifier_patterns'));
  });

  it('serves each original entry byte for byte at /corrections/<id>.json', async () => {
    const doc = await getLedger(app);
    for (const o of doc.originals) {
      const res = await app.inject({ method: 'GET', url: o.url });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.rawPayload, readFileSync(entryPath(corpus, o.id)));
      assert.equal(res.headers['access-control-allow-origin'], '*');
    }
    for (const url of [
      '/corrections/C-2026-0101-01.json',
      '/corrections/C-2026-0302-01',
      '/corrections/..%2Fledger.json',
      '/corrections/ledger.json',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().code, 'not_found');
    }
    assert.equal((await app.inject({ method: 'GET', url: '/api/corrections?x=1' })).json().code, 'bad_query');
  });

  it('answers 200 with an empty ledger that says none is published when the corpus has none', async () => {
    const bare = demoCopy();
    rmSync(join(bare, 'corrections'), { recursive: true, force: true });
    const doc = await getLedger(demoApp(bare).app);
    assert.deepEqual(doc, {
      schema: 'svc.corrections/0.1',
      ledger_published: false,
      reason: doc.reason,
      policy: null,
      license: null,
      publisher: null,
      timing_fields: null,
      corrections: [],
      signature: { state: 'UNSIGNED', kid: null, signed_at: null, reason: doc.reason },
      originals: [],
    });
    assert.match(doc.reason, /no corrections ledger is published/);
  });
});

describe('corrections are never edited (publish)', () => {
  it('refuses a changed or removed entry, naming the file; accepts an added one', () => {
    const signing = testSigning();
    const corpus = corpusWithLedger();
    const { dataDir } = demoApp(corpus, signing);
    const original = readFileSync(entryPath(corpus, 'C-2026-0310-01'));

    writeFileSync(entryPath(corpus, 'C-2026-0310-01'), original.toString().replace('p below 0.10', 'p below 0.1'));
    const changed = refusal(() => publishRelease(corpus, dataDir, signing.inputs));
    assert.deepEqual(
      changed.map((p) => p.file),
      ['corrections/entries/C-2026-0310-01.json'],
    );
    assert.match(
      changed[0]!.reason,
      /differs from the bytes published in release r-[0-9a-f]+: corrections are superseded by new entries, never edited/,
    );

    writeFileSync(entryPath(corpus, 'C-2026-0310-01'), original);
    const unmeasured = readFileSync(entryPath(corpus, 'C-2026-0325-01'));
    rmSync(entryPath(corpus, 'C-2026-0325-01'));
    const removed = refusal(() => publishRelease(corpus, dataDir, signing.inputs));
    assert.deepEqual(
      removed.map((p) => p.file),
      ['corrections/entries/C-2026-0325-01.json'],
    );
    assert.match(
      removed[0]!.reason,
      /missing from this corpus: corrections are superseded by new entries, never edited/,
    );

    writeFileSync(entryPath(corpus, 'C-2026-0325-01'), unmeasured);
    writeFileSync(entryPath(corpus, 'C-2026-0405-01'), newEntry('C-2026-0405-01', '2026-04-05'));
    const added = publishRelease(corpus, dataDir, signing.inputs);
    assert.equal(added.reused, false);
    assert.ok(loadRelease(added.dir).corpus.status.corrections!.entries.some((e) => e.id === 'C-2026-0405-01'));
  });
});

describe('gspc corrections sign', () => {
  it('signs to CURRENT; an added entry reads STALE until re-signed; a tampered signature reads INVALID', async () => {
    const signing = testSigning();
    const corpus = corpusWithLedger();
    const signed = signCorrections(corpus, signing.inputs.boardKey, SIGNED_AT);
    assert.equal(signed.signed, true);
    const { app, state, dataDir } = demoApp(corpus, signing);
    let doc = await getLedger(app);
    assert.deepEqual(doc.signature, {
      state: 'CURRENT',
      kid: `${signing.did}#board-attestation-1`,
      signed_at: '2026-04-02T10:00:00.000Z',
      reason: doc.signature.reason,
    });
    assert.equal((await app.inject({ method: 'GET', url: '/peritem/corrections/signature.json' })).statusCode, 200);

    writeFileSync(entryPath(corpus, 'C-2026-0405-01'), newEntry('C-2026-0405-01', '2026-04-05'));
    republish(state, corpus, dataDir, signing);
    doc = await getLedger(app);
    assert.equal(doc.signature.state, 'STALE');
    assert.deepEqual(doc.signature.changed, {
      ledger_json: false,
      added: ['C-2026-0405-01'],
      changed: [],
      removed: [],
    });

    signCorrections(corpus, signing.inputs.boardKey, new Date('2026-04-05T10:00:00Z'));
    republish(state, corpus, dataDir, signing);
    doc = await getLedger(app);
    assert.equal(doc.signature.state, 'CURRENT');
    assert.equal(doc.signature.changed, undefined);

    const sigPath = join(corpus, 'corrections', 'signature.json');
    const file = JSON.parse(readFileSync(sigPath, 'utf8')) as { sig_ed25519: string };
    file.sig_ed25519 = `${file.sig_ed25519.slice(0, 127)}${file.sig_ed25519.endsWith('0') ? '1' : '0'}`;
    writeFileSync(sigPath, `${JSON.stringify(file, null, 2)}\n`);
    republish(state, corpus, dataDir, signing);
    doc = await getLedger(app);
    assert.equal(doc.signature.state, 'INVALID');
    assert.match(doc.signature.reason, /does not verify/);
  });

  it('runs as a command with the configured board key, and refuses an invalid ledger', async () => {
    const signing = testSigning();
    const corpus = corpusWithLedger();
    const env = { ...process.env };
    process.env.GSPC_KEY_DIR = signing.keyDir;
    process.env.GSPC_DID_HOST = TEST_DID_HOST;
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => {
      out.push(chunk);
      return true;
    }) as typeof process.stdout.write;
    try {
      await main(['node', 'gspc', 'corrections', 'sign', corpus]);
    } finally {
      process.stdout.write = write;
      process.env = env;
    }
    assert.match(out.join(''), /^signed 5 entries at .* under did:web:localhost%3A8080#board-attestation-1\n/);
    const file = JSON.parse(readFileSync(join(corpus, 'corrections', 'signature.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.deepEqual(Object.keys(file), ['schema', 'ledger_sha256', 'entries', 'signed_at', 'kid', 'sig_ed25519']);
    assert.equal(file.schema, 'svc.corrections-signature/0.1');

    writeFileSync(entryPath(corpus, 'C-2026-0406-01'), newEntry('C-2026-0406-01', '2026-04-07'));
    const problems = refusal(() => signCorrections(corpus, signing.inputs.boardKey, SIGNED_AT));
    assert.deepEqual(
      problems.map((p) => [p.file, p.field]),
      [['corrections/entries/C-2026-0406-01.json', 'id']],
    );
  });
});
