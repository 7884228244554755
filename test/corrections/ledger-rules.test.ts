/**
 * The corrections ledger's pure rules (specification, "Corrections ledger"): correction_latency
 * in its three cases with exact figures, id validation, supersession hashes, internal
 * identifiers, the shape of every file, and the signature states computed from bytes.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { keyPairFromSeed, sign } from '../../src/core/crypto/ed25519.js';
import type { SignerState } from '../../src/core/evidence/signer.js';
import { correctionLatency } from '../../src/core/ledger/correction-latency.js';
import { correctionsDocument } from '../../src/core/ledger/corrections-document.js';
import { correctionIdProblem } from '../../src/core/ledger/corrections-entry.js';
import { editedEntryProblems } from '../../src/core/ledger/corrections-never-edited.js';
import {
  sealCorrectionsSignature,
  signatureStatus,
  signaturePayload,
} from '../../src/core/ledger/corrections-signature.js';
import { readCorrections } from '../../src/corpus/status/corrections.js';
import type { StatusReadIo } from '../../src/corpus/status/io.js';
import { correctionsFiles } from '../../demo/status/corrections.js';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** An in-memory corpus directory. */
function memIo(files: Map<string, string>): StatusReadIo {
  return {
    exists: (p) => files.has(p) || [...files.keys()].some((k) => k.startsWith(`${p}/`)),
    load: (p) => {
      const t = files.get(p);
      if (t === undefined) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      const bytes = Buffer.from(t);
      return { path: p, bytes, sha256: sha(bytes) };
    },
    list: (d) =>
      [
        ...new Set(
          [...files.keys()].filter((k) => k.startsWith(`${d}/`)).map((k) => k.slice(d.length + 1).split('/')[0]!),
        ),
      ].sort(),
    axes: new Set(),
  };
}

const demo = () => new Map(correctionsFiles());
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const entryOf = (files: Map<string, string>, id: string) =>
  JSON.parse(files.get(`corrections/entries/${id}.json`)!) as Record<string, unknown>;
const put = (files: Map<string, string>, e: Record<string, unknown>, name = `${String(e.id)}.json`) =>
  files.set(`corrections/entries/${name}`, json(e));
const problemsOf = (files: Map<string, string>) => readCorrections(memIo(files)).problems;

describe('correction_latency', () => {
  it('EXACT when both times are datetimes: seconds = published − detected, bounds equal', () => {
    const l = correctionLatency({ detected_at: '2026-03-02T09:15:00Z', published_at: '2026-03-02T17:45:30Z' });
    assert.deepEqual(
      [l.kind, l.seconds, l.upper_bound_seconds, l.lower_bound_seconds, l.signed],
      ['EXACT', 30630, 30630, 30630, false],
    );
    assert.equal(
      correctionLatency({ detected_at: '2026-03-02T09:15:00.250Z', published_at: '2026-03-02T09:15:11Z' }).seconds,
      10.75,
    );
    assert.equal(
      correctionLatency({ detected_at: '2026-12-31T23:00:00Z', published_at: '2027-01-01T01:00:00Z' }).seconds,
      7200,
    );
  });

  it('UPPER_BOUND from the start of the detection day, lower bound from its end', () => {
    const l = correctionLatency({ detected_at: '2026-03-09', published_at: '2026-03-10T12:00:00Z' });
    assert.deepEqual(
      [l.kind, l.seconds, l.upper_bound_seconds, l.lower_bound_seconds],
      ['UPPER_BOUND', null, 129600, 43200],
    );
    assert.match(l.basis!, /only to the day 2026-03-09/);
    // Published during the detection day: no lower bound above zero.
    const same = correctionLatency({ detected_at: '2026-03-09', published_at: '2026-03-09T06:00:00Z' });
    assert.deepEqual([same.kind, same.upper_bound_seconds, same.lower_bound_seconds], ['UPPER_BOUND', 21600, null]);
    assert.match(same.basis!, /no lower bound/);
  });

  it('UPPER_BOUND from a detection window: not_before for the upper bound, not_after for the lower', () => {
    const w = { not_before: '2026-03-15T00:00:00Z', not_after: '2026-03-16T18:00:00Z', basis: 'nightly checks' };
    const l = correctionLatency({
      detected_at: 'UNRECORDED',
      detected_window: w,
      published_at: '2026-03-17T00:00:00Z',
    });
    assert.deepEqual(
      [l.kind, l.seconds, l.upper_bound_seconds, l.lower_bound_seconds],
      ['UPPER_BOUND', null, 172800, 21600],
    );
    // Publication known only to the day: the upper bound runs to its end, the lower from its start.
    const d = correctionLatency({ detected_at: 'UNRECORDED', detected_window: w, published_at: '2026-03-18' });
    assert.deepEqual([d.upper_bound_seconds, d.lower_bound_seconds], [345600, 108000]);
    assert.match(d.basis!, /end of that day/);
    // A day narrowed by a window: the instants both allow.
    const both = correctionLatency({
      detected_at: '2026-03-15',
      detected_window: { not_before: '2026-03-14T12:00:00Z', not_after: '2026-03-15T06:00:00Z', basis: 'b' },
      published_at: '2026-03-16T00:00:00Z',
    });
    assert.deepEqual([both.upper_bound_seconds, both.lower_bound_seconds], [86400, 64800]);
  });

  it('UPPER_BOUND when only the publication is a date, saying so in basis', () => {
    const l = correctionLatency({ detected_at: '2026-03-02T09:15:00Z', published_at: '2026-03-02' });
    assert.deepEqual(
      [l.kind, l.seconds, l.upper_bound_seconds, l.lower_bound_seconds],
      ['UPPER_BOUND', null, 53100, null],
    );
    assert.match(
      l.basis!,
      /published_at recorded only to the day 2026-03-02: the upper bound runs to the end of that day/,
    );
  });

  it('UNMEASURED with null figures and the reason', () => {
    const a = correctionLatency({ detected_at: 'UNRECORDED', published_at: '2026-03-25T08:00:00Z' });
    assert.deepEqual(
      [a.kind, a.seconds, a.upper_bound_seconds, a.lower_bound_seconds],
      ['UNMEASURED', null, null, null],
    );
    assert.match(a.reason!, /detected_at is UNRECORDED and no detected_window/);
    const b = correctionLatency({ detected_at: '2026-03-25T08:00:00Z', published_at: 'UNRECORDED' });
    assert.equal(b.kind, 'UNMEASURED');
    assert.match(b.reason!, /published_at is UNRECORDED/);
    assert.equal(b.basis, undefined);
  });

  it('the demo ledger shows every case', () => {
    const r = readCorrections(memIo(demo()));
    assert.deepEqual(r.problems, []);
    const kinds = r.value!.entries.map((e) => [e.id, correctionLatency(e.entry).kind]);
    assert.deepEqual(kinds, [
      ['C-2026-0302-01', 'EXACT'],
      ['C-2026-0310-01', 'UPPER_BOUND'],
      ['C-2026-0318-01', 'UPPER_BOUND'],
      ['C-2026-0325-01', 'UNMEASURED'],
      ['C-2026-0401-01', 'EXACT'],
    ]);
  });
});

describe('correction ids', () => {
  it('validates form, calendar date and agreement with date', () => {
    assert.equal(correctionIdProblem('C-2026-0302-01', '2026-03-02'), undefined);
    assert.match(correctionIdProblem('C-2026-302-01', '2026-03-02')!, /form C-YYYY-MMDD-NN/);
    assert.match(correctionIdProblem('c-2026-0302-01', '2026-03-02')!, /form/);
    assert.match(correctionIdProblem('C-2026-0230-01', '2026-02-30')!, /2026-02-30 is not a calendar date/);
    assert.match(correctionIdProblem('C-2025-0229-01', '2025-02-29')!, /not a calendar date/);
    assert.equal(correctionIdProblem('C-2024-0229-01', '2024-02-29'), undefined);
    assert.match(
      correctionIdProblem('C-2026-0302-01', '2026-03-03')!,
      /names the day 2026-03-02 but the entry's date is 2026-03-03/,
    );
    assert.match(correctionIdProblem('C-2026-0302-00', '2026-03-02')!, /starts at 01/);
  });

  it('refuses a bad id, an impossible date, a mismatch and a duplicate in the corpus, naming file and field', () => {
    const bad = demo();
    const e = entryOf(bad, 'C-2026-0302-01');
    put(bad, { ...e, id: 'C-2026-302-01' });
    bad.delete('corrections/entries/C-2026-0302-01.json');
    assert.ok(
      problemsOf(bad).some(
        (p) =>
          p.file === 'corrections/entries/C-2026-302-01.json' && p.field === 'id' && /C-YYYY-MMDD-NN/.test(p.reason),
      ),
    );

    const impossible = demo();
    put(impossible, { ...e, id: 'C-2026-0230-01', date: '2026-02-30' });
    const ip = problemsOf(impossible).filter((p) => p.file === 'corrections/entries/C-2026-0230-01.json');
    assert.ok(ip.some((p) => p.field === 'id' && /not a calendar date/.test(p.reason)));
    assert.ok(ip.some((p) => p.field === 'date'));

    const mismatch = demo();
    put(mismatch, { ...e, date: '2026-03-03' });
    const mp = problemsOf(mismatch);
    assert.equal(mp.length, 1);
    assert.deepEqual([mp[0]!.file, mp[0]!.field], ['corrections/entries/C-2026-0302-01.json', 'id']);
    assert.equal(typeof mp[0]!.line, 'number');

    const dup = demo();
    put(dup, e, 'C-2026-0302-02.json');
    const dp = problemsOf(dup);
    assert.ok(
      dp.some(
        (p) =>
          p.file === 'corrections/entries/C-2026-0302-02.json' &&
          /C-2026-0302-01 is already the id of corrections\/entries\/C-2026-0302-01.json/.test(p.reason),
      ),
    );
    assert.ok(dp.some((p) => /must be named after the id/.test(p.reason)));
  });
});

describe('corrections corpus rules', () => {
  it('no corrections/ directory: no ledger, no problem', () => {
    assert.deepEqual(readCorrections(memIo(new Map([['board.json', '{}']]))), { problems: [] });
  });

  it('checks supersedes_text: the target exists and original_sha256 is the SHA-256 of its text', () => {
    const files = demo();
    const s = entryOf(files, 'C-2026-0401-01');
    const target = entryOf(files, 'C-2026-0310-01');
    assert.equal(
      (s.supersedes_text as { original_sha256: string }).original_sha256,
      sha(Buffer.from(target.why_it_was_wrong as string, 'utf8')),
    );
    const wrongHash = new Map(files);
    put(wrongHash, {
      ...s,
      supersedes_text: { id: 'C-2026-0310-01', field: 'why_it_was_wrong', original_sha256: sha('something else') },
    });
    assert.deepEqual(
      problemsOf(wrongHash).map((p) => [p.file, p.field]),
      [['corrections/entries/C-2026-0401-01.json', 'supersedes_text.original_sha256']],
    );
    const noTarget = new Map(files);
    put(noTarget, {
      ...s,
      supersedes_text: { id: 'C-2026-0309-01', field: 'why_it_was_wrong', original_sha256: sha('x') },
    });
    assert.match(problemsOf(noTarget)[0]!.reason, /C-2026-0309-01 is not an entry/);
    const noField = new Map(files);
    put(noField, { ...s, supersedes_text: { id: 'C-2026-0310-01', field: 'note', original_sha256: sha('x') } });
    assert.equal(problemsOf(noField)[0]!.field, 'supersedes_text.field');
    const stored = new Map(files);
    put(stored, {
      ...target,
      text_superseded_by: { id: 'C-2026-0401-01', field: 'what_was_wrong', original_sha256: sha('x') },
    });
    assert.ok(
      problemsOf(stored).some(
        (p) => p.file === 'corrections/entries/C-2026-0310-01.json' && p.field === 'text_superseded_by',
      ),
    );
  });

  it('the served document derives text_superseded_by from the later entry', () => {
    const v = readCorrections(memIo(demo())).value!;
    const doc = correctionsDocument(v, { state: 'UNSIGNED', kid: null, signed_at: null, reason: 'test' });
    const target = doc.corrections.find((c) => c.id === 'C-2026-0310-01')!;
    assert.deepEqual(target.text_superseded_by, {
      id: 'C-2026-0401-01',
      field: 'why_it_was_wrong',
      original_sha256: sha(Buffer.from(String(target.why_it_was_wrong))),
    });
    assert.equal(doc.corrections.find((c) => c.id === 'C-2026-0302-01')!.text_superseded_by, undefined);
  });

  it('refuses an entry text matching an internal identifier pattern, without repeating it', () => {
    const files = demo();
    const e = entryOf(files, 'C-2026-0325-01');
    put(files, { ...e, evidence: ['SYNTHETIC: fabric observation', 'see ops-ticket-4411'] });
    const p = problemsOf(files);
    assert.equal(p.length, 1);
    assert.deepEqual([p[0]!.file, p[0]!.field], ['corrections/entries/C-2026-0325-01.json', 'evidence.1']);
    assert.match(p[0]!.reason, /internal_identifier_patterns\[1\]: the ledger never reproduces an internal identifier/);
    assert.doesNotMatch(p[0]!.reason, /4411/);
    const badPattern = demo();
    const ledger = JSON.parse(badPattern.get('corrections/ledger.json')!) as Record<string, unknown>;
    badPattern.set('corrections/ledger.json', json({ ...ledger, internal_identifier_patterns: ['(unclosed'] }));
    assert.equal(problemsOf(badPattern)[0]!.field, 'internal_identifier_patterns.0');
  });

  it('refuses unknown fields, bad vocabularies, publication before detection and stray files', () => {
    const e = entryOf(demo(), 'C-2026-0302-01');
    const cases: [Record<string, unknown>, string][] = [
      [{ ...e, severity: 'high' }, ''],
      [{ ...e, detected_by: 'a colleague' }, 'detected_by'],
      [{ ...e, status: 'corrected later' }, 'status'],
      [{ ...e, published_at: '2026-03-02T09:14:59Z' }, 'published_at'],
      [{ ...e, published_at: '2026-03-01' }, 'published_at'],
      [{ ...e, detected_at: '2026-03-02T25:00:00Z' }, 'detected_at'],
      [{ ...e, detected_window: { not_before: '2026-03-03', not_after: '2026-03-04', basis: 'b' } }, 'detected_at'],
      [{ ...e, fix: 'both given' }, 'fix'],
    ];
    for (const [entry, field] of cases) {
      const files = demo();
      put(files, entry);
      const p = problemsOf(files);
      assert.ok(
        p.length > 0 && p.every((x) => x.file === 'corrections/entries/C-2026-0302-01.json'),
        JSON.stringify(entry),
      );
      assert.ok(
        p.some((x) => x.field === field),
        `${field}: ${JSON.stringify(p)}`,
      );
    }
    const stray = demo();
    stray.set('corrections/notes.txt', 'x');
    assert.equal(problemsOf(stray)[0]!.file, 'corrections/notes.txt');
    const noLedger = demo();
    noLedger.delete('corrections/ledger.json');
    assert.equal(problemsOf(noLedger)[0]!.file, 'corrections/ledger.json');
  });
});

describe('ledger signature states', () => {
  const pair = keyPairFromSeed(Buffer.alloc(32, 7));
  const kid = 'did:web:example.org#board-attestation-1';
  const key: SignerState = {
    healthy: true,
    signer: { kid, publicKey: pair.publicKey, sign: (m) => sign(pair.privateKey, m) },
  };
  const keys = new Map([[kid, pair.publicKey as Uint8Array]]);
  const digest = {
    ledger_sha256: sha('ledger'),
    entries: [
      { id: 'C-2026-0302-01', sha256: sha('a') },
      { id: 'C-2026-0101-01', sha256: sha('b') },
    ],
  };
  const file = sealCorrectionsSignature(signaturePayload(digest, '2026-04-02T00:00:00.000Z'), key);

  it('sorts the signed entries by id and reads CURRENT over the same bytes', () => {
    assert.deepEqual(
      file.entries.map((e) => e.id),
      ['C-2026-0101-01', 'C-2026-0302-01'],
    );
    assert.equal(signatureStatus(file, digest, keys, kid).state, 'CURRENT');
  });

  it('reads STALE after any change, naming it', () => {
    const s = signatureStatus(
      file,
      {
        ledger_sha256: sha('ledger 2'),
        entries: [
          { id: 'C-2026-0302-01', sha256: sha('a2') },
          { id: 'C-2026-0401-01', sha256: sha('c') },
        ],
      },
      keys,
      kid,
    );
    assert.equal(s.state, 'STALE');
    assert.deepEqual(s.changed, {
      ledger_json: true,
      added: ['C-2026-0401-01'],
      changed: ['C-2026-0302-01'],
      removed: ['C-2026-0101-01'],
    });
  });

  it('reads INVALID when tampered or under another key, UNSIGNED without a signature', () => {
    const flipped = `${file.sig_ed25519!.slice(0, 10)}${file.sig_ed25519![10] === '0' ? '1' : '0'}${file.sig_ed25519!.slice(11)}`;
    assert.equal(signatureStatus({ ...file, sig_ed25519: flipped }, digest, keys, kid).state, 'INVALID');
    assert.equal(signatureStatus({ ...file, ledger_sha256: sha('other') }, digest, keys, kid).state, 'INVALID');
    assert.match(signatureStatus(file, digest, new Map(), kid).reason, /not listed among the verification methods/);
    assert.match(
      signatureStatus(file, digest, keys, 'did:web:example.org#card-attestation-2').reason,
      /not the board key/,
    );
    assert.equal(signatureStatus(undefined, digest, keys, kid).state, 'UNSIGNED');
    const unsigned = sealCorrectionsSignature(signaturePayload(digest, '2026-04-02T00:00:00.000Z'), {
      healthy: false,
      kid,
      reason: 'key missing',
    });
    assert.deepEqual([unsigned.sig_ed25519, unsigned.unsigned_reason], [null, 'key missing']);
    assert.deepEqual(signatureStatus(unsigned, digest, keys, kid).state, 'UNSIGNED');
  });
});

describe('never edited (pure)', () => {
  it('names changed and removed entries; accepts added ones and other files', () => {
    const prev = [
      { path: 'corrections/entries/A.json', sha256: 'a' },
      { path: 'corrections/entries/B.json', sha256: 'b' },
      { path: 'corrections/ledger.json', sha256: 'l' },
    ];
    const next = [
      { path: 'corrections/entries/A.json', sha256: 'a2' },
      { path: 'corrections/entries/C.json', sha256: 'c' },
      { path: 'corrections/ledger.json', sha256: 'l2' },
    ];
    const p = editedEntryProblems(prev, next, 'r-1');
    assert.deepEqual(
      p.map((x) => x.file),
      ['corrections/entries/A.json', 'corrections/entries/B.json'],
    );
    assert.ok(p.every((x) => /never edited/.test(x.reason)));
    assert.deepEqual(
      editedEntryProblems(prev, [...prev, { path: 'corrections/entries/D.json', sha256: 'd' }], 'r-1'),
      [],
    );
  });
});
