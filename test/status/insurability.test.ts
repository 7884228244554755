/**
 * GET /api/insurability-pack (svc.insurability-evidence-pack/0.1): every field of the
 * specification's "Insurability evidence pack", counts read from what the service serves (the
 * card matrix, the reported figures, the regulation feed), the six stated limits, an unsigned
 * signature envelope, and nulls with reasons for what the release does not publish.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError, type CorpusProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { readRailConfig } from '../../src/config.js';
import { loadRelease } from '../../src/release/load.js';
import { regulationFiles, regulationFeedDemo } from '../../demo/status/regulation.js';
import { reportedFiles, reportedFiguresDemo } from '../../demo/status/reported.js';
import { ownersDemo, ownersFiles } from '../../demo/status/owners.js';
import { east_westFiles } from '../../demo/status/east-west.js';
import { demoApp, liveSigning } from '../helpers/app.js';
import { demoCopy } from '../helpers/tmp.js';

type Json = Record<string, any>;
const write = (dir: string, path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const AT = '2026-11-21T10:00:00.000Z';
const STATUS_FILES = ['status/regulation.json', 'status/reported.json', 'status/owners.json', 'status/east-west.json'];

/** A demo corpus with exactly the given status files. */
function corpus(files: [string, string][]): string {
  const dir = demoCopy();
  for (const p of STATUS_FILES) rmSync(join(dir, p), { force: true });
  for (const [p, t] of files) write(dir, p, t);
  return dir;
}

function packApp(state: ServedState, extra: Partial<Parameters<typeof buildApp>[0]> = {}) {
  return buildApp({ state, logLevel: 'silent', now: () => new Date(AT), ...extra });
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

describe('insurability evidence pack (GET /api/insurability-pack)', () => {
  const full = demoApp(corpus([...regulationFiles(), ...reportedFiles(), ...ownersFiles(), ...east_westFiles()]));
  const rail = readRailConfig({});
  const app = packApp(full.state, { products: { rail } });
  const get = async (a = app, url = '/api/insurability-pack') => a.inject({ url });

  it('has every field of the specification, in its order, with the schema and ts from the clock', async () => {
    const r = await get();
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.headers['access-control-allow-origin'], '*');
    assert.equal(r.headers['x-content-type-options'], 'nosniff');
    const p = r.json() as Json;
    assert.deepEqual(Object.keys(p), [
      'schema',
      'ts',
      'purpose',
      'system_transparency',
      'data_lineage',
      'active_controls',
      'named_owners',
      'bundle',
      'limitations',
      'signature_envelope',
    ]);
    assert.equal(p.schema, 'svc.insurability-evidence-pack/0.1');
    assert.equal(p.ts, AT);
    assert.match(p.purpose, /not a trigger, not an attestation/);
    assert.deepEqual(Object.keys(p.system_transparency), ['what_is_measured', 'board', 'methodology', 'verify']);
    assert.deepEqual(
      [p.system_transparency.board, p.system_transparency.methodology, p.system_transparency.verify],
      ['/api/gspc', '/methodology', '/gspc-verify'],
    );
    for (const k of ['measured_cells', 'reported_figures', 'regulation', 'market']) assert.ok(k in p.data_lineage, k);
    assert.deepEqual(Object.keys(p.active_controls), [
      'signing_chain',
      'watchdog',
      'corrections_ledger',
      'drift_detection',
    ]);
    for (const k of ['measurement_director', 'signing_key_id', 'professional_indemnity', 'contact'])
      assert.ok(k in p.named_owners, k);
  });

  it("measured_cells is the served card matrix's cell count, and agrees with the board's measured rows", async () => {
    const p = (await get()).json() as Json;
    const matrix = (await get(app, '/signed/card-matrix.json')).json() as Json;
    assert.equal(p.data_lineage.measured_cells, matrix.counts.cells);
    assert.equal(p.data_lineage.measured_cells, matrix.cells.length);
    // Independently from the board: one cell per model of each MEASURED comparison row (refused banks withdrawn), one per MEASURED facts row.
    const board = (await get(app, '/api/gspc')).json() as Json;
    const fromBoard = board.axes
      .filter((r: Json) => r.status === 'MEASURED' && !r.bank_state)
      .reduce((s: number, r: Json) => s + (r.kind === 'model-comparison' ? r.models : 1), 0);
    assert.equal(p.data_lineage.measured_cells, fromBoard);
    assert.ok(p.system_transparency.what_is_measured.includes(board.totals.public_count));
  });

  it('lineage: reported figures and the regulation pin from the corpus; the market rail, development grade', async () => {
    const l = ((await get()).json() as Json).data_lineage;
    assert.equal(l.reported_figures, reportedFiguresDemo().figures.length);
    assert.equal(l.reported_figures_reason, undefined);
    assert.deepEqual(l.regulation, {
      version: regulationFeedDemo().version,
      verified_as_of: regulationFeedDemo().verified_as_of,
      url: '/api/regulation',
    });
    assert.equal(l.market.network, rail.network);
    assert.equal(l.market.asset, rail.asset);
    assert.equal(l.market.mode, 'live');
    assert.equal(l.market.grade, 'development grade');
    assert.deepEqual([l.market.pay_to_configured, l.market.facilitator_configured], [false, false]);
  });

  it('active controls: the live board key and its health, the watchdog every 600 s, the corrections ledger, drift detection not implemented', async () => {
    const c = ((await get()).json() as Json).active_controls;
    const kid = `${full.signing.did}#board-attestation-1`;
    assert.deepEqual(
      [c.signing_chain.board_key_id, c.signing_chain.state, c.signing_chain.did],
      [kid, 'HEALTHY', full.signing.did],
    );
    assert.deepEqual([c.watchdog.endpoint, c.watchdog.period_seconds], ['/api/oracle-fleet', 600]);
    assert.equal(c.corrections_ledger.endpoint, '/api/corrections');
    assert.equal(c.drift_detection.state, 'NOT_IMPLEMENTED');
    // The kid resolves in the served DID document.
    const did = (await get(app, '/.well-known/did.json')).json() as Json;
    assert.ok(did.verificationMethod.some((m: Json) => m.id === kid));
  });

  it('an unhealthy board key reads UNHEALTHY with its reason', async () => {
    const reason = 'the key file is readable by others';
    const state = new ServedState(loadRelease(full.dir), {
      ...liveSigning(full.signing),
      boardKey: { healthy: false, kid: `${full.signing.did}#board-attestation-1`, reason },
    });
    const a = packApp(state);
    const c = ((await get(a)).json() as Json).active_controls.signing_chain;
    assert.deepEqual([c.state, c.reason], ['UNHEALTHY', reason]);
    await a.close();
  });

  it('named owners from status/owners.json; professional indemnity UNVERIFIED; right of reply 14 days', async () => {
    const o = ((await get()).json() as Json).named_owners;
    assert.equal(o.measurement_director, ownersDemo().measurement_director);
    assert.equal(o.contact, 'corrections@example.org');
    assert.equal(o.signing_key_id, `${full.signing.did}#board-attestation-1`);
    assert.equal(o.professional_indemnity, 'UNVERIFIED');
    assert.equal(o.right_of_reply_days, 14);
    assert.equal(o.reason, undefined);
  });

  it('bundle: the five components, each with its path', async () => {
    const b = ((await get()).json() as Json).bundle as Json[];
    assert.deepEqual(
      b.map((x) => [x.component, x.path]),
      [
        ['measurement-receipt', '/api/request-attestation?subject={subject}'],
        ['template', '/api/insurability-pack'],
        ['provision-text', '/api/regulation'],
        ['control-crosswalk', '/api/evidence-bundle?obligation={obligation}'],
        ['corrections-excerpt', '/api/corrections'],
      ],
    );
    assert.equal(b[0]!.verify, '/api/receipts/verify');
    assert.equal(b[2]!.version, regulationFeedDemo().version);
    assert.deepEqual(
      b[3]!.obligations,
      full.state.current().release.corpus.obligations.map((o) => o.id),
    );
  });

  it('limitations: the six stated limits of the specification', async () => {
    const lim = ((await get()).json() as Json).limitations as string[];
    assert.equal(lim.length, 6);
    const want = [
      /measurement, not certification/i,
      /market rail .*development grade/i,
      /no live human-baseline capture/i,
      /no independent timestamp/i,
      /re-measurement after a source change is not implemented/i,
      /right of reply.*14 days/i,
    ];
    want.forEach((re, i) => assert.match(lim[i]!, re));
  });

  it('signature envelope: svc.signed-surface/0.1, unsigned, null signature and kid, the metered bundle path', async () => {
    const e = ((await get()).json() as Json).signature_envelope;
    assert.deepEqual(
      { ...e, note: undefined },
      {
        schema: 'svc.signed-surface/0.1',
        signed: false,
        sig_ed25519: null,
        kid: null,
        note: undefined,
        metered_bundle: '/api/evidence-bundle?obligation={obligation}&bundle=1',
      },
    );
    assert.match(e.note, /unsigned/);
  });

  it('a query parameter is a 400 bad_query', async () => {
    const r = await get(app, '/api/insurability-pack?obligation=dora');
    assert.equal(r.statusCode, 400);
    assert.equal(r.json().code, 'bad_query');
  });
});

describe('insurability pack: what the release does not publish is null with the reason', () => {
  it('no owners, reported figures, regulation feed or rail: nulls with reasons, never zeros', async () => {
    const { state } = demoApp(corpus([]));
    const a = packApp(state);
    const p = (await a.inject({ url: '/api/insurability-pack' })).json() as Json;
    await a.close();
    const o = p.named_owners;
    assert.deepEqual([o.measurement_director, o.contact, o.professional_indemnity], [null, null, 'UNVERIFIED']);
    assert.match(o.signing_key_id, /#board-attestation-1$/);
    assert.match(o.reason, /^unread: .*status\/owners\.json/);
    const l = p.data_lineage;
    assert.equal(l.reported_figures, null);
    assert.match(l.reported_figures_reason, /status\/reported\.json/);
    assert.equal(l.regulation, null);
    assert.match(l.regulation_reason, /status\/regulation\.json/);
    assert.equal(l.market, null);
    assert.match(l.market_reason, /payment rail/);
    assert.equal(p.bundle[2].version, null);
    // measured cells are still read from the card matrix.
    assert.equal(typeof l.measured_cells, 'number');
  });

  it('status/owners.json: a contact that is not an e-mail address is refused', () => {
    const dir = corpus([['status/owners.json', `${JSON.stringify({ ...ownersDemo(), contact: 'write to us' })}\n`]]);
    assert.ok(problems(dir).some((p) => p.file === 'status/owners.json' && p.field === 'contact'));
    const dots = corpus([
      ['status/owners.json', `${JSON.stringify({ ...ownersDemo(), contact: 'a..b@example.org' })}\n`],
    ]);
    assert.ok(problems(dots).some((p) => p.field === 'contact'));
    const typed = corpus([
      ['status/owners.json', `${JSON.stringify({ ...ownersDemo(), professional_indemnity: 'VERIFIED' })}\n`],
    ]);
    assert.ok(problems(typed).length > 0, 'professional indemnity cannot be typed into the corpus');
  });
});
