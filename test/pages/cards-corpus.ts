/**
 * The demo corpus with a models.json (issue 40): cards for four of its five (fictional) models,
 * one with two revisions and one whose organisation is full of markup, for the Models tab tests
 * and the accessibility run. The demo itself has no cards: its models are fictional, and a card
 * would invent what nobody recorded.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoCopy } from '../helpers/tmp.js';

export const MARKUP_ORG = '<b>Lab & "Co"</b>';
export const CARDS = [
  {
    model: 'demo/atlas-70b',
    organisation: 'Demo Lab A (fictional)',
    open_weights: true,
    licence: 'apache-2.0',
    parameters: 70_600_000_000,
    release_date: '2026-01-15',
    knowledge_cutoff: '2025-10',
    revision: ['main', 'v2'],
    url: 'https://example.org/atlas',
  },
  { model: 'demo/borealis-34b', organisation: MARKUP_ORG, open_weights: false, parameters: 34_000_000_000 },
  { model: 'demo/cirrus-8b', organisation: 'Demo Lab A (fictional)' },
  { model: 'svc/sentinel-1', parameters: 1_000_000_000 },
];

export function cardsCorpus(): string {
  const dir = demoCopy();
  writeFileSync(join(dir, 'models.json'), JSON.stringify({ schema: 'svc.gspc-corpus-models/1', models: CARDS }));
  return dir;
}
