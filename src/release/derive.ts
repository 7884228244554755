/**
 * From a validated corpus to the board source: every axis row derived once, and the
 * per-item manifest whose hash the board quotes. Pure apart from the values it is given.
 */
import type { DerivedAxis } from '../core/board/axis-row.js';
import type { BoardSource } from '../core/board/board.js';
import { deriveComparisonRow } from '../core/board/comparison-row.js';
import { deriveFactsRow } from '../core/board/facts-row.js';
import { buildPeritemManifest, type PeritemManifest } from '../core/board/peritem-manifest.js';
import type { Corpus } from '../corpus/read-corpus.js';

export interface DerivedRelease {
  source: BoardSource;
  manifest: PeritemManifest;
  manifestBytes: Buffer;
}

export function deriveRelease(corpus: Corpus): DerivedRelease {
  const axes: DerivedAxis[] = corpus.definitions.map((def) =>
    def.kind === 'model-comparison'
      ? deriveComparisonRow(def, corpus.tables.get(def.axis), corpus.meta.own_models)
      : deriveFactsRow(def, corpus.evidence.get(def.axis)),
  );
  const { manifest, bytes, sha256 } = buildPeritemManifest(
    corpus.meta.as_of,
    corpus.files.map((f) => {
      const axis = /^peritem\/([a-z0-9-]+)\.jsonl$/.exec(f.path)?.[1];
      const rows = axis !== undefined ? corpus.tables.get(axis)?.rowCount : undefined;
      return { path: f.path, sha256: f.sha256, bytes: f.bytes.length, ...(rows !== undefined && { rows }) };
    }),
  );
  return {
    source: { meta: corpus.meta, axes, lane: corpus.lane, peritem: { sha256, rows: manifest.rows } },
    manifest,
    manifestBytes: bytes,
  };
}
