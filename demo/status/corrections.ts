/**
 * The demo corpus's corrections ledger (docs/drafts/corrections.md): ledger.json and five
 * SYNTHETIC entries that together show each latency case (EXACT; UPPER_BOUND from a day and from
 * a detection window, one with a publication known only to the day; UNMEASURED), one text
 * supersession whose original_sha256 is computed here from the superseded text, and one
 * WITHDRAWN entry. No signature.json: demo keys are generated on each machine, so the demo
 * ledger honestly reads UNSIGNED until an operator runs `gspc corrections sign`.
 */
import { createHash } from 'node:crypto';

const file = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const sha256Text = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

const LEDGER = {
  schema: 'svc.corrections-corpus/1',
  policy:
    'SYNTHETIC demo ledger. Every published error is recorded here as a new entry; an entry is never edited or deleted once published: a later entry supersedes its text and names the SHA-256 of the text it replaces. Right of reply within 14 days.',
  publisher: 'SYNTHETIC demo operator of the measurement board',
  license: 'CC-BY-4.0',
  timing_fields: {
    detected_at:
      'When the error was first known to be an error: a UTC datetime, a date when only the day was recorded, or UNRECORDED.',
    detected_window:
      'When detection was not recorded: the earliest and latest instants it can have happened, and the basis for them.',
    published_at: 'When the correction first became public (a UTC datetime, a date, or UNRECORDED).',
    timing_evidence: 'The records the timing fields are read from.',
    first_observed_at: 'When the wrong value was first seen by anyone, if known.',
    error_introduced_at: 'When the wrong value entered a published artefact, if known.',
    corrected_at: 'When the corrected value was published, if it differs from published_at.',
  },
  internal_identifier_patterns: ['\\bINC-[0-9]{3,}\\b', '\\bops-ticket-[0-9]+\\b'],
};

const EXACT = {
  id: 'C-2026-0302-01',
  date: '2026-03-02',
  detected_at: '2026-03-02T09:15:00Z',
  detected_by: 'internal audit',
  published_at: '2026-03-02T17:45:30Z',
  timing_evidence: [
    'SYNTHETIC: audit log line of the failed re-derivation',
    'SYNTHETIC: release publish time of the corrected board',
  ],
  error_introduced_at: '2026-02-27T12:00:00Z',
  corrected_at: '2026-03-02T17:45:30Z',
  what_was_wrong: 'SYNTHETIC: the governance axis showed n = 412 where the per-item rows hold 410 parsed items.',
  why_it_was_wrong: 'SYNTHETIC: two duplicated rows were counted before de-duplication.',
  how_caught: 'SYNTHETIC: the scheduled re-derivation of every board number from the per-item rows disagreed.',
  what_changed: 'SYNTHETIC: rows are de-duplicated by item id before counting; the board was re-published.',
  status: 'CORRECTED in the release of 2026-03-02 (SYNTHETIC)',
  reached_the_public: true,
  evidence: ['/peritem/governance.jsonl', 'SYNTHETIC: release notes of 2026-03-02'],
};

const BY_DAY = {
  id: 'C-2026-0310-01',
  date: '2026-03-10',
  detected_at: '2026-03-09',
  detected_by: 'external report',
  published_at: '2026-03-10T12:00:00Z',
  timing_evidence: ['SYNTHETIC: the report arrived by post, stamped with the day only'],
  what_was_wrong: 'SYNTHETIC: the methodology page gave the separation threshold as p below 0.10.',
  why_it_was_wrong: 'SYNTHETIC: a draft sentence was published.',
  how_caught: 'SYNTHETIC: a reader compared the page with the published decision rule.',
  fix: 'SYNTHETIC: the page now states p below 0.05, exact McNemar, as the board applies it.',
  status: 'CORRECTED (SYNTHETIC)',
  reached_the_public: true,
  evidence: ['SYNTHETIC: archived copy of the methodology page before and after'],
};

const WITHDRAWN_BY_WINDOW = {
  id: 'C-2026-0318-01',
  date: '2026-03-18',
  detected_at: 'UNRECORDED',
  detected_window: {
    not_before: '2026-03-15T00:00:00Z',
    not_after: '2026-03-16T18:00:00Z',
    basis: 'SYNTHETIC: between the last nightly check that passed and the first that failed',
  },
  detected_by: 'internal monitor',
  published_at: '2026-03-18',
  timing_evidence: [
    'SYNTHETIC: nightly check results of 2026-03-14 to 2026-03-17',
    'SYNTHETIC: the withdrawal ledger records the day only',
  ],
  what_was_wrong: 'SYNTHETIC: a card was issued for a bank whose exact-label menu has a single label.',
  why_it_was_wrong: 'SYNTHETIC: a one-label bank cannot separate models; such cards are refused.',
  how_caught: 'SYNTHETIC: the nightly card check flagged the bank.',
  what_changed: 'SYNTHETIC: the card is listed in the withdrawal ledger and no longer counted.',
  status: 'WITHDRAWN: the card stays published byte for byte and is listed as withdrawn (SYNTHETIC)',
  reached_the_public: true,
  evidence: ['/ledgers/withdrawals.json'],
};

const UNMEASURED = {
  id: 'C-2026-0325-01',
  date: '2026-03-25',
  detected_at: 'UNRECORDED',
  detected_by: 'UNRECORDED',
  published_at: '2026-03-25T08:00:00Z',
  timing_evidence: [],
  what_was_wrong:
    'SYNTHETIC: a zone-level check refused plain HTTP clients with 403 on all public paths while browsers were served.',
  why_it_was_wrong: 'SYNTHETIC: public, keyless reading is a principle of the board; the check contradicted it.',
  how_caught: 'SYNTHETIC: not recorded.',
  what_changed: 'SYNTHETIC: none by the service; the remedy is an owner action on the zone configuration.',
  status: 'RECORDED as a past defect whose remedy is an owner action (SYNTHETIC)',
  reached_the_public: true,
  evidence: ['SYNTHETIC: capability fabric observation with last_error HTTP 403'],
  note: 'SYNTHETIC: the detection time was never recorded, so no latency is stated.',
};

const superseded = BY_DAY.why_it_was_wrong;
const SUPERSEDES = {
  id: 'C-2026-0401-01',
  date: '2026-04-01',
  detected_at: '2026-03-31T15:20:00Z',
  detected_by: 'self-report',
  published_at: '2026-04-01T09:00:00Z',
  timing_evidence: ['SYNTHETIC: editorial review notes of 2026-03-31'],
  what_was_wrong: `SYNTHETIC: ${BY_DAY.id} said a draft sentence was published.`,
  why_it_was_wrong: 'SYNTHETIC: the sentence was a typing error in the final text, not a draft.',
  how_caught: 'SYNTHETIC: editorial review of the ledger.',
  what_changed: `SYNTHETIC: this entry supersedes ${BY_DAY.id}.why_it_was_wrong; the original stays byte for byte.`,
  status: 'CORRECTED by supersession (SYNTHETIC)',
  reached_the_public: false,
  evidence: [`/corrections/${BY_DAY.id}.json`],
  supersedes_text: { id: BY_DAY.id, field: 'why_it_was_wrong', original_sha256: sha256Text(superseded) },
};

export function correctionsFiles(): [path: string, text: string][] {
  const entries = [EXACT, BY_DAY, WITHDRAWN_BY_WINDOW, UNMEASURED, SUPERSEDES];
  return [
    ['corrections/ledger.json', file(LEDGER)],
    ...entries.map((e): [string, string] => [`corrections/entries/${e.id}.json`, file(e)]),
  ];
}
