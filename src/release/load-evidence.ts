/**
 * Reads a release's evidence files (already checked against release.json) into what serving
 * needs: card bytes by id and by URL prefix, the root, the ledgers, and the set of cells with a
 * signed card (the board's NO_SIGNED_CARD check).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cellKey } from '../core/board/board.js';
import type { CardFile } from '../core/evidence/card.js';
import type { RootRecord } from '../core/evidence/public-root.js';
import { GspcError } from '../core/errors.js';
import { EVIDENCE_DIR } from './evidence.js';
import type { LogHistoryEntry } from '../core/evidence/card-log.js';
import { supersededNow } from '../core/evidence/card-matrix.js';

export interface LoadedEvidence {
  /** Evidence files by their path relative to the release (`evidence/...`). */
  files: Map<string, Buffer>;
  cards: Map<string, CardFile>;
  root: RootRecord;
  rootBytes: Buffer;
  /** SHA-256 of the exact root bytes (what witnesses and timestamp proofs cover). */
  rootSha256: string;
  /** Withdrawn card → reason (withdrawal ledger). */
  withdrawn: Map<string, string>;
  /** Superseded card → the card that replaced it (supersession ledger). */
  superseded: Map<string, string>;
  /** Cells (model + NUL + axis) whose active card carries a signature. */
  signedCells: Set<string>;
  /** The card log: entries (hex, log order), the signed checkpoint note if any, the history. */
  log: { origin: string; entries: string[]; checkpoint?: string; history: LogHistoryEntry[] };
}

export function loadEvidence(
  releaseDir: string,
  paths: readonly { path: string; sha256: string }[],
  sha256: (b: Buffer) => string,
): LoadedEvidence {
  const files = new Map<string, Buffer>();
  for (const p of paths) {
    const bytes = readFileSync(join(releaseDir, p.path));
    if (sha256(bytes) !== p.sha256)
      throw new GspcError(
        'release_invalid',
        `evidence file ${p.path} does not match release.json; refusing to serve the release`,
      );
    files.set(p.path, bytes);
  }
  const read = <T>(name: string): T => {
    const b = files.get(`${EVIDENCE_DIR}/${name}`);
    if (!b) throw new GspcError('release_invalid', `the release has no ${EVIDENCE_DIR}/${name}`);
    return JSON.parse(b.toString('utf8')) as T;
  };
  const cards = new Map<string, CardFile>();
  for (const [path, bytes] of files) {
    if (path.startsWith(`${EVIDENCE_DIR}/cards/`)) {
      const card = JSON.parse(bytes.toString('utf8')) as CardFile;
      cards.set(card.sha256, card);
    }
  }
  const withdrawn = new Map(
    read<{ entries: { sha256: string; reason: string }[] }>('withdrawals.json').entries.map((e) => [
      e.sha256,
      e.reason,
    ]),
  );
  const superseded = supersededNow(
    read<{ entries: { sha256: string; superseded_by: string }[] }>('supersessions.json').entries,
  );
  const issued = read<{ sha256: string; model: string | null; axis: string; withdrawn?: string }[]>('issued.json');
  const signedCells = new Set<string>();
  for (const i of issued) {
    const card = cards.get(i.sha256);
    if (i.model !== null && i.withdrawn === undefined && card?.sig_ed25519) signedCells.add(cellKey(i.model, i.axis));
  }
  const rootBytes = files.get(`${EVIDENCE_DIR}/root.json`)!;
  const entries = read<{ origin: string; entries: string[] }>('log-entries.json');
  const checkpoint = files.get(`${EVIDENCE_DIR}/log-checkpoint`)?.toString('utf8');
  const log = {
    origin: entries.origin,
    entries: entries.entries,
    history: read<{ checkpoints: LogHistoryEntry[] }>('log-history.json').checkpoints,
    ...(checkpoint !== undefined && { checkpoint }),
  };
  return {
    files,
    cards,
    root: read<RootRecord>('root.json'),
    rootBytes,
    rootSha256: sha256(rootBytes),
    withdrawn,
    superseded,
    signedCells,
    log,
  };
}
