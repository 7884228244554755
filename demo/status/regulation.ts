/**
 * The demo corpus's regulation feed (`status/regulation.json`, served at `/api/regulation`).
 * SYNTHETIC: the instruments and application dates are those of the cited EU regulations, but
 * every citation is labelled as a demo, every pinned provision text is a placeholder (its
 * SHA-256 is of the placeholder, not of the legal text), and the one enforcement signal and its
 * authority are fictitious. Deterministic: no clock.
 */
import { createHash } from 'node:crypto';

const AI_ACT = 'Regulation (EU) 2024/1689 (Artificial Intelligence Act)';
const DORA = 'Regulation (EU) 2022/2554 (Digital Operational Resilience Act)';
const CRA = 'Regulation (EU) 2024/2847 (Cyber Resilience Act)';
const URL = {
  [AI_ACT]: 'https://eur-lex.europa.eu/eli/reg/2024/1689/oj',
  [DORA]: 'https://eur-lex.europa.eu/eli/reg/2022/2554/oj',
  [CRA]: 'https://eur-lex.europa.eu/eli/reg/2024/2847/oj',
};
const VERIFIED = '2026-11-01';

function deadline(
  id: string,
  instrument: keyof typeof URL,
  provision: string,
  obligation: string,
  applies_from: string,
) {
  const provision_text = `SYNTHETIC DEMO placeholder for ${provision} of ${instrument}: not the legal text. A real feed pins the official text and its SHA-256.`;
  return {
    id,
    instrument,
    provision,
    obligation,
    applies_from,
    source: { citation: `SYNTHETIC DEMO citation: ${instrument}, ${provision}`, url: URL[instrument] },
    provision_text_sha256: createHash('sha256').update(provision_text, 'utf8').digest('hex'),
    provision_text,
    verified_as_of: VERIFIED,
    status: 'ADOPTED',
  };
}

export function regulationFeedDemo() {
  return {
    version: '2026.11-1',
    verified_as_of: VERIFIED,
    reverify_policy:
      'Re-verified quarterly (within 92 days of verified_as_of) and on any amendment of a listed instrument; each re-verification publishes a new version.',
    deadlines: [
      deadline(
        'eu-ai-act-art-5',
        AI_ACT,
        'Article 5 (prohibited AI practices)',
        'Do not place on the market or use AI systems that perform the prohibited practices',
        '2025-02-02',
      ),
      deadline(
        'eu-ai-act-art-53',
        AI_ACT,
        'Article 53 (obligations for providers of general-purpose AI models)',
        'Keep technical documentation and information for downstream providers up to date',
        '2025-08-02',
      ),
      deadline(
        'eu-ai-act-art-50',
        AI_ACT,
        'Article 50 (transparency obligations)',
        'Disclose AI interaction and mark synthetic content in a machine-readable way',
        '2026-08-02',
      ),
      deadline(
        'dora-application',
        DORA,
        'Article 64 (entry into force and application)',
        'Manage, test and document ICT risk, including third-party ICT services',
        '2025-01-17',
      ),
      deadline(
        'cra-art-14-reporting',
        CRA,
        'Article 14 (reporting obligations of manufacturers)',
        'Notify actively exploited vulnerabilities and severe incidents',
        '2026-09-11',
      ),
      deadline(
        'cra-application',
        CRA,
        'Article 71 (entry into force and application)',
        'Meet the essential cybersecurity requirements of Annex I',
        '2027-12-11',
      ),
    ],
    signals: [
      {
        id: 'demo-dora-fine-1',
        date: '2026-10-15',
        authority: 'SYNTHETIC DEMO supervisory authority (fictitious)',
        instrument: DORA,
        kind: 'fine',
        summary:
          'SYNTHETIC DEMO: a fictitious fine for missing ICT third-party risk documentation. No such fine exists.',
        source: {
          citation: 'SYNTHETIC DEMO press release (no such document exists)',
          url: 'https://example.org/demo/enforcement/dora-fine-1',
        },
      },
    ],
    first_fine_watch: [
      { instrument: AI_ACT, watching_since: '2025-02-02', first_fine: null },
      { instrument: DORA, watching_since: '2025-01-17', first_fine: 'demo-dora-fine-1' },
      { instrument: CRA, watching_since: '2026-09-11', first_fine: null },
    ],
    note: 'SYNTHETIC DEMO feed: application dates follow the cited regulations, but the citations, provision texts and the enforcement signal are demo placeholders. Not legal advice.',
  };
}

export function regulationFiles(): [path: string, text: string][] {
  return [['status/regulation.json', `${JSON.stringify(regulationFeedDemo(), null, 2)}\n`]];
}
