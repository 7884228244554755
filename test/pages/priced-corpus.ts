/**
 * The demo with model cards (cards-corpus.ts), token counts on governance and a price list
 * (issue 40): the axis pages' accuracy-against-cost view on a real page, for the unit tests and
 * the Chromium accessibility run. On governance every model has token counts (demo/dune-8b-ft on
 * every third row only, and no price: "no cost"), and one more model whose id is markup answers
 * like demo/cirrus-8b but worse on a tenth of the items. demo/cirrus-8b is priced above
 * demo/borealis-34b, which is separated above it: dominated. The other axes have prices but no
 * token counts: each says so in one line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cardsCorpus } from './cards-corpus.js';

export const MARKUP_MODEL = 'demo/<b>"x"&y</b>';

const TOKENS: Record<string, [number, number]> = {
  'demo/atlas-70b': [1200, 300],
  'demo/borealis-34b': [1100, 160],
  'demo/cirrus-8b': [1000, 90],
  'demo/dune-8b-ft': [1000, 80],
  'svc/sentinel-1': [900, 100],
  [MARKUP_MODEL]: [1000, 60],
};

export const PRICES = [
  {
    model: 'demo/atlas-70b',
    input_usd_per_mtok: 3,
    output_usd_per_mtok: 15,
    read_on: '2026-10-01',
    source: 'price page (fictional)',
  },
  {
    model: 'demo/borealis-34b',
    input_usd_per_mtok: 0.5,
    output_usd_per_mtok: 1.5,
    read_on: '2026-10-01',
    url: 'https://example.org/borealis',
  },
  {
    model: 'demo/cirrus-8b',
    input_usd_per_mtok: 2,
    output_usd_per_mtok: 8,
    read_on: '2026-09-15',
    source: 'contract (fictional)',
  },
  {
    model: 'svc/sentinel-1',
    input_usd_per_mtok: 0.1,
    output_usd_per_mtok: 0.1,
    read_on: '2026-10-01',
    source: 'our own',
  },
  {
    model: MARKUP_MODEL,
    input_usd_per_mtok: 0.05,
    output_usd_per_mtok: 0.1,
    read_on: '2026-10-01',
    source: '<i>markup</i> & "quotes"',
  },
];

export function pricedCorpus(): string {
  const dir = cardsCorpus();
  const file = join(dir, 'peritem', 'governance.jsonl');
  const out: string[] = [];
  let k = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const row = JSON.parse(line) as Record<string, unknown>;
    const model = row['model'] as string;
    const [input, output] = TOKENS[model]!;
    k++;
    const tokens = { input_tokens: input + (k % 97), output_tokens: output + (k % 13) };
    if (model !== 'demo/dune-8b-ft' || k % 3 === 0) Object.assign(row, tokens);
    out.push(JSON.stringify(row));
    if (model === 'demo/cirrus-8b') {
      // The markup model: cirrus's answers, wrong on every tenth item it got right.
      const worse = k % 10 === 0 && row['label'] === row['gold'] ? (row['gold'] === 'A' ? 'B' : 'A') : row['label'];
      const [mi, mo] = TOKENS[MARKUP_MODEL]!;
      out.push(
        JSON.stringify({
          ...row,
          model: MARKUP_MODEL,
          label: worse,
          input_tokens: mi + (k % 89),
          output_tokens: mo + (k % 7),
        }),
      );
    }
  }
  writeFileSync(file, `${out.join('\n')}\n`);
  writeFileSync(join(dir, 'prices.json'), JSON.stringify({ schema: 'svc.gspc-corpus-prices/1', prices: PRICES }));
  return dir;
}
