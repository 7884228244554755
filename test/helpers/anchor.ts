/**
 * A reader's own trust anchor for tests that serve a release away from its DID's host (issue
 * 36): `gspc verify` of such a URL reads the keys at the DID's host (`localhost:8080` for the
 * test keys, where nothing listens), so these tests verify as a reader who saved the origin's DID
 * document does: `--trust-did-document <file>` on the command line, `anchor` in code.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { anchorOfDidDocument, type ReaderAnchor } from '../../src/core/verify/key-source.js';
import { tempDir } from './tmp.js';

/** The anchor of a saved DID document (what `--trust-did-document` reads). */
export function trusting(didDocument: unknown): ReaderAnchor {
  const anchor = anchorOfDidDocument(didDocument, 'the DID document the test saved');
  if ('problem' in anchor) throw new Error(anchor.problem);
  return anchor;
}

/** The DID document written to a file, for `gspc verify --trust-did-document <file>`. */
export function savedDidDocument(didDocument: unknown): string {
  const file = join(tempDir(), 'did.json');
  writeFileSync(file, `${JSON.stringify(didDocument, null, 2)}\n`);
  return file;
}
