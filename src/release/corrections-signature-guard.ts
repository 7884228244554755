import { join } from 'node:path';
import { GspcError } from '../core/errors.js';
import { didDocument, type PublishedKey } from '../core/evidence/did.js';
import type { TransitionRecord } from '../core/evidence/key-transition.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import { signatureStatus } from '../core/ledger/corrections-signature.js';
import { keysOfDidDocument } from '../core/verify/card-verifier.js';
import { readCorrectionsDir } from '../corpus/status/corrections-dir.js';

export function refuseInvalidCorrectionsSignature(
  corpusDir: string,
  keys: { did: string; published: readonly PublishedKey[]; transitions?: readonly TransitionRecord[] },
  fix: string,
): void {
  const read = readCorrectionsDir(corpusDir);
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
