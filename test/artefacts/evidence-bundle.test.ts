/** The evidence bundle: OSCAL valid against NIST's schema, bench detached signature, manifest card, unchanged cards with proofs. */
import assert from 'node:assert/strict';
import { verify } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { oscalAssessmentResults } from '../../src/core/evidence/oscal-assessment.js';
import { BUNDLE_UNMEASURED, EVIDENCE_BUNDLE_SCHEMA } from '../../src/core/evidence/evidence-bundle.js';
import { inclusionProblem } from '../../src/core/evidence/commission-receipt.js';
import type { CardFile } from '../../src/core/evidence/card.js';
import { relevantCards } from '../../src/payments/bundle-preview.js';
import { produceArtefact } from '../../src/payments/artefacts.js';
import {
  AS_OF,
  app,
  board,
  boardPublicKey,
  context,
  jcs,
  loaded,
  release,
  rootJson,
  sealHolds,
  sha256Hex,
  unhealthy,
} from './fixture.js';
import { oscalErrors } from './oscal-validator.js';

type Bundle = Record<string, any>;
const bundleFor = (obligation: string, subject?: string, over: Parameters<typeof context>[0] = {}) =>
  produceArtefact('evidence_bundle', { obligation, bundle: '1', ...(subject ? { subject } : {}) }, context(over))
    .artefact as Bundle;
const article50 = loaded.corpus.obligations.find((o) => o.id === 'article-50')!;

describe('evidence bundle (svc.evidence-bundle/0.1)', () => {
  const bundle = bundleFor('article-50');

  it("has the specification's fields and the bundle preview's card selection, cards unchanged", () => {
    assert.equal(bundle.schema, EVIDENCE_BUNDLE_SCHEMA);
    assert.equal(bundle.kind, 'bundle');
    assert.equal(bundle.as_of, AS_OF);
    assert.deepEqual(bundle.obligation, article50);
    assert.equal(bundle.subject, null);
    assert.match(bundle.relation, /relevant to EU-AI-ACT-50 .*never a determination/);
    const expected = relevantCards(release, article50, undefined);
    assert.ok(expected.length > 0);
    assert.deepEqual(bundle.cards, expected);
    for (const c of bundle.cards as CardFile[]) assert.deepEqual(c, loaded.evidence.cards.get(c.sha256));
    assert.deepEqual(bundle.unmeasured, ['fresh_run', 'conformity_determination']);
    for (const u of bundle.unmeasured as (keyof typeof BUNDLE_UNMEASURED)[]) assert.ok(BUNDLE_UNMEASURED[u]);
  });

  it('can be posted to /api/verify as it is: every card VALID under the root and in the log', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/verify', payload: bundle });
    assert.equal(res.statusCode, 200);
    const out = res.json() as { summary: { checked: number; valid: number } };
    assert.deepEqual(out.summary, { checked: bundle.cards.length, valid: bundle.cards.length, invalid: 0 });
  });

  it("carries each card's inclusion proof beside it, verifying against root.json", () => {
    assert.equal(bundle.root_inclusion.length, bundle.cards.length);
    bundle.cards.forEach((c: CardFile, i: number) => {
      assert.equal(bundle.root_inclusion[i].sha256, c.sha256);
      assert.equal(inclusionProblem(c.sha256, bundle.root_inclusion[i], rootJson), null);
    });
  });

  it("wraps an OSCAL document that validates against NIST's assessment-results schema, for every obligation and subject", () => {
    assert.deepEqual(oscalErrors(bundle.oscal), []);
    for (const o of loaded.corpus.obligations) assert.deepEqual(oscalErrors(bundleFor(o.id).oscal), [], o.id);
    const model = (bundle.cards as CardFile[]).at(-1)!.subject;
    const narrowed = bundleFor('article-50', model);
    assert.ok(narrowed.cards.length > 0 && narrowed.cards.every((c: CardFile) => c.subject === model));
    assert.deepEqual(oscalErrors(narrowed.oscal), []);
    // The product route passes Date#toISOString(), with milliseconds.
    assert.deepEqual(oscalErrors(bundleFor('cra', undefined, { asOf: '2026-11-21T12:00:00.123Z' }).oscal), []);
    const none = bundleFor('article-50', 'no-such-model');
    assert.equal(none.cards.length, 0);
    assert.deepEqual(oscalErrors(none.oscal), []);
  });

  it('property: any subset of active cards, any obligation and subject gives a valid, reproducible OSCAL document', () => {
    const obligations = loaded.corpus.obligations;
    fc.assert(
      fc.property(
        fc.subarray([...release.active]),
        fc.integer({ min: 0, max: obligations.length - 1 }),
        fc.option(fc.string({ minLength: 1, maxLength: 40 }), { nil: null }),
        (cards, i, subject) => {
          const input = {
            obligation: obligations[i]!,
            subject,
            cards,
            as_of: AS_OF,
            version: release.as_of,
            baseUrl: 'http://localhost:8080',
          };
          const doc = oscalAssessmentResults(input);
          assert.deepEqual(oscalErrors(doc), []);
          assert.ok(jcs(doc).equals(jcs(oscalAssessmentResults(input))));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects broken OSCAL documents (the validation can fail)', () => {
    const broken: [string, (ar: any) => void][] = [
      ['result without reviewed-controls', (ar) => delete ar.results[0]['reviewed-controls']],
      [
        'a random-looking uuid of the wrong version',
        (ar) => {
          ar.uuid = '12345678-1234-1234-8234-123456789abc';
        },
      ],
      [
        'an empty oscal-version',
        (ar) => {
          ar.metadata['oscal-version'] = '';
        },
      ],
      [
        'a control id with a space',
        (ar) => {
          ar.results[0]['reviewed-controls']['control-selections'][0]['include-controls'][0]['control-id'] =
            'EU AI ACT 50';
        },
      ],
      [
        'an unknown member',
        (ar) => {
          ar.results[0].conformity = 'satisfied';
        },
      ],
      ['an observation without collected', (ar) => delete ar.results[0].observations[0].collected],
    ];
    for (const [what, breakIt] of broken) {
      const doc = structuredClone(bundle.oscal);
      breakIt(doc['assessment-results']);
      assert.notDeepEqual(oscalErrors(doc), [], what);
    }
    assert.notDeepEqual(
      oscalErrors(bundle.oscal['assessment-results']),
      [],
      'the inner object alone is not an OSCAL document',
    );
  });

  it('is relevant-to, never a determination: OSCAL 1.1.0, one observation per card, no findings', () => {
    const ar = bundle.oscal['assessment-results'];
    assert.equal(ar.metadata['oscal-version'], '1.1.0');
    assert.equal(ar.metadata['last-modified'], AS_OF);
    assert.equal(ar.metadata.version, release.as_of);
    const result = ar.results[0];
    assert.equal(ar.results.length, 1);
    assert.equal('findings' in result, false);
    assert.doesNotMatch(JSON.stringify(bundle.oscal), /"(satisfied|not-satisfied)"/);
    assert.match(result.remarks, /relevant-to, never a conformity determination/);
    assert.deepEqual(result['reviewed-controls']['control-selections'], [
      { 'include-controls': [{ 'control-id': 'EU-AI-ACT-50' }] },
    ]);
    assert.deepEqual(
      result.observations.map((o: any) => o.props.find((p: any) => p.name === 'card-sha256').value),
      bundle.cards.map((c: CardFile) => c.sha256),
    );
    assert.deepEqual(
      result.observations.map((o: any) => o.collected),
      bundle.cards.map((c: CardFile) => c.as_of),
    );
    assert.ok(result.observations.every((o: any) => o['relevant-evidence'][0].description.includes(o.props[0].value)));
  });

  it('signs bench.json with a detached Ed25519 signature over its RFC 8785 bytes', () => {
    assert.deepEqual(bundle.bench.json, board);
    assert.equal(bundle.bench.preimage, 'RFC 8785 of bench.json');
    assert.equal(bundle.bench.kid, `${context().did}#board-attestation-1`);
    const bytes = jcs(bundle.bench.json);
    assert.equal(bundle.bench.sha256, sha256Hex(bytes));
    const sig = Buffer.from(bundle.bench.sig_ed25519, 'hex');
    assert.ok(verify(null, bytes, boardPublicKey, sig));
    for (const at of [0, Math.floor(bytes.length / 2), bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[at] = tampered[at]! ^ 0x01;
      assert.equal(verify(null, tampered, boardPublicKey, sig), false, `byte ${at}`);
    }
  });

  it('has a signed manifest card whose hashes match every component', () => {
    const m = bundle.manifest_card;
    assert.equal(m.surface, 'evidence.bundle');
    assert.equal(m.subject, 'EU-AI-ACT-50');
    assert.equal(m.as_of, AS_OF);
    assert.deepEqual(sealHolds(m), { address: true, signature: true });
    const c = m.payload.components;
    assert.equal(c.oscal.sha256, sha256Hex(jcs(bundle.oscal)));
    assert.equal(c.bench.sha256, sha256Hex(jcs(bundle.bench.json)));
    assert.deepEqual(
      c.cards,
      bundle.cards.map((x: CardFile) => x.sha256),
    );
    assert.equal(c.root_inclusion.sha256, sha256Hex(jcs(bundle.root_inclusion)));
    assert.deepEqual(m.payload.obligation, {
      id: 'article-50',
      control_id: 'EU-AI-ACT-50',
      sha256: sha256Hex(jcs(article50)),
    });
    assert.deepEqual(m.payload.root, bundle.root);
    assert.deepEqual(m.payload.commissioned_for, context().commissionedFor);
    // A changed OSCAL document no longer matches the signed manifest.
    const changed = structuredClone(bundle.oscal);
    changed['assessment-results'].metadata.title += ' (edited)';
    assert.notEqual(sha256Hex(jcs(changed)), c.oscal.sha256);
  });

  it('with an unhealthy key: bench and manifest unsigned with the reason, OSCAL still valid', () => {
    const u = bundleFor('article-50', undefined, { boardKey: unhealthy });
    assert.equal(u.bench.sig_ed25519, null);
    assert.equal(u.bench.unsigned_reason, 'the key file is readable by others');
    assert.equal(u.manifest_card.sig_ed25519, null);
    assert.equal(u.manifest_card.unsigned_reason, 'the key file is readable by others');
    assert.equal(sealHolds(u.manifest_card).address, true);
    assert.deepEqual(oscalErrors(u.oscal), []);
  });

  it('states a card without a proof', () => {
    const u = bundleFor('article-50', undefined, { proofOf: () => undefined });
    assert.ok(u.root_inclusion.every((p: unknown) => p === null));
    assert.deepEqual(u.unmeasured, ['fresh_run', 'conformity_determination', 'cards_root_inclusion']);
  });

  it('is deterministic: the same inputs give the same bytes (UUIDs included)', () => {
    const a = produceArtefact('evidence_bundle', { obligation: 'article-50', bundle: '1' }, context());
    const b = produceArtefact('evidence_bundle', { obligation: 'article-50', bundle: '1' }, context());
    assert.ok(a.body.equals(b.body));
    const other = bundleFor('article-53');
    assert.notEqual(other.oscal['assessment-results'].uuid, bundle.oscal['assessment-results'].uuid);
  });
});
