/**
 * A release directory as export input: loaded and checked exactly as `gspc serve` loads it
 * (every file against release.json, the board re-derived), so the exported accuracies are the
 * board's own cells. A data directory is accepted too: its `current` release is read.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RunSettings } from '../core/board/run-settings.js';
import { currentReleaseDir, loadRelease } from '../release/load.js';
import { exportRows, type ExportAxis, type ExportInput } from './export-input.js';

export function releaseInput(dir: string): ExportInput {
  const releaseDir = existsSync(join(dir, 'release.json')) ? dir : (currentReleaseDir(dir) ?? dir);
  const release = loadRelease(releaseDir);
  const axes: ExportAxis[] = [];
  const skipped: string[] = [];
  for (const def of release.corpus.definitions) {
    if (def.kind !== 'model-comparison') continue;
    const derived = release.source.axes.find((a) => a.row.axis === def.axis);
    const file = release.corpus.files.find((f) => f.path === `peritem/${def.axis}.jsonl`);
    if (def.status !== 'MEASURED' || derived?.cells === undefined) {
      skipped.push(`${def.axis}: ${def.status}, so the board has no cells on it`);
    } else if (file === undefined) {
      skipped.push(`${def.axis}: aggregate results only, no per-item rows to export`);
    } else {
      const settings = new Map<string, RunSettings>();
      for (const col of release.corpus.tables.get(def.axis)?.columns.values() ?? [])
        if (col.settings !== undefined) settings.set(col.model, col.settings);
      axes.push({
        def,
        rowsUrl: `/peritem/${def.axis}.jsonl`,
        rows: exportRows(file.bytes, file.path),
        cells: derived.cells,
        ...(settings.size > 0 && { settings }),
      });
    }
  }
  return {
    origin: `release ${release.id}`,
    as_of: release.descriptor.as_of,
    issuer: release.corpus.meta.issuer,
    peritem_sha256: release.descriptor.peritem_sha256,
    axes,
    skipped,
  };
}
