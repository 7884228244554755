/**
 * A publish never makes current a release whose served corrections signature would read INVALID
 * (issue 36, defect 7). `/api/corrections` checks `corrections/signature.json` against the board
 * key of the DID document served beside the release; a ledger signed for another origin (`gspc
 * corrections sign` under did:web:localhost%3A8080 for a board at https://board.example) or by a
 * key since rotated reads INVALID there, while the publish said "verified". So the publish checks
 * it first, under the DID document the release will be served with, and refuses with the fix.
 * UNSIGNED and STALE are what the ledger honestly is and are published.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GspcError } from '../core/errors.js';
import { didDocument, type PublishedKey } from '../core/evidence/did.js';
import type { TransitionRecord } from '../core/evidence/key-transition.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import { signatureStatus } from '../core/ledger/corrections-signature.js';
import { keysOfDidDocument } from '../core/verify/card-verifier.js';
import { readCorrections } from '../corpus/status/corrections.js';

export function refuseInvalidCorrectionsSignature(
  corpusDir: string,
  keys: { did: string; published: readonly PublishedKey[]; transitions?: readonly TransitionRecord[] },
  fix: string,
): void {
  const read = readCorrections({
    exists: (p) => existsSync(join(corpusDir, p)),
    load: (p) => {
      const bytes = readFileSync(join(corpusDir, p));
      return { path: p, bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
    },
    list: (d) =>
      existsSync(join(corpusDir, d)) && statSync(join(corpusDir, d)).isDirectory()
        ? readdirSync(join(corpusDir, d)).sort()
        : [],
    axes: new Set(),
  });
  // A ledger that does not read is the corpus check's to refuse, with every problem.
  const ledger = read.value;
  if (ledger === undefined || read.problems.length > 0) return;
  const doc = didDocument(keys.did, keys.published, keys.transitions ?? []);
  const status = signatureStatus(
    ledger.signature,
    { ledger_sha256: ledger.ledgerSha256, entries: ledger.entries.map((e) => ({ id: e.id, sha256: e.sha256 })) },
    keysOfDidDocument(doc),
    `${keys.did}#${BOARD_KEY}`,
  );
  if (status.state !== 'INVALID') return;
  throw new GspcError(
    'corrections_signature_invalid',
    `the corrections ledger's signature (${join(corpusDir, 'corrections', 'signature.json')}) would read INVALID at /api/corrections: ${status.reason}. Fix: ${fix}; nothing was published`,
    { kid: status.kid, did: keys.did },
  );
}
