/**
 * A copy of the demo corpus with three edits a reader should be told about: the governance rows of
 * the two leading models swapped (the leader changes, and nothing else on that axis); the care
 * axis's gold labels made one label with no declared menu (a refused bank: its cards are
 * withdrawn, its row names no leader); and a new correction entry, C-2026-1120-01 (gspc diff, /api/changes, /feed.atom).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoCopy } from './tmp.js';

export const ADDED_CORRECTION = 'C-2026-1120-01';

export function editedDemo(): string {
  const dir = demoCopy();
  const rowsFile = join(dir, 'peritem', 'governance.jsonl');
  const rows = readFileSync(rowsFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { item: string; model: string; label: unknown });
  const byItem = new Map<string, typeof rows>();
  for (const r of rows) byItem.set(r.item, [...(byItem.get(r.item) ?? []), r]);
  for (const group of byItem.values()) {
    const a = group.find((r) => r.model === 'demo/atlas-70b')!;
    const b = group.find((r) => r.model === 'demo/borealis-34b')!;
    [a.label, b.label] = [b.label, a.label];
  }
  writeFileSync(rowsFile, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  // care: no declared menu, and one gold label on every row: the menu is that one label.
  const careFile = join(dir, 'axes', 'care.json');
  const { labels: _menu, ...care } = JSON.parse(readFileSync(careFile, 'utf8')) as { labels?: string[] };
  writeFileSync(careFile, `${JSON.stringify(care, null, 2)}\n`);
  const careRows = join(dir, 'peritem', 'care.jsonl');
  const oneGold = readFileSync(careRows, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.stringify({ ...(JSON.parse(l) as object), gold: 'escalate' }));
  writeFileSync(careRows, `${oneGold.join('\n')}\n`);
  const entry = JSON.parse(readFileSync(join(dir, 'corrections', 'entries', 'C-2026-0325-01.json'), 'utf8'));
  Object.assign(entry, {
    id: ADDED_CORRECTION,
    date: '2026-11-20',
    published_at: '2026-11-20T08:00:00Z',
    what_was_wrong: 'The governance rows of two models were swapped at import.',
  });
  writeFileSync(join(dir, 'corrections', 'entries', `${ADDED_CORRECTION}.json`), `${JSON.stringify(entry, null, 2)}\n`);
  return dir;
}
