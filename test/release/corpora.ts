/**
 * Corpora for publish sequences (issue 16), each a copy of the demo: A (the demo itself), B (one
 * safety row's label changed, so that axis's cards change) and A′ (A with a cosmetic edit of
 * board.json, so its cards are A's again while the corpus differs).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

export function corpora(): { A: string; B: string; A2: string } {
  const root = tempDir();
  const [A, B, A2] = ['A', 'B', 'A2'].map((n) => join(root, n)) as [string, string, string];
  for (const d of [A, B, A2]) cpSync(demoCorpus, d, { recursive: true });
  const rows = join(B, 'peritem', 'safety.jsonl');
  const lines = readFileSync(rows, 'utf8').split('\n');
  const first = JSON.parse(lines[0]!) as { label: string };
  first.label = first.label === 'comply' ? 'refuse' : 'comply';
  lines[0] = JSON.stringify(first);
  writeFileSync(rows, lines.join('\n'));
  const board = join(A2, 'board.json');
  writeFileSync(board, `${readFileSync(board, 'utf8').trimEnd()}\n\n`);
  return { A, B, A2 };
}
