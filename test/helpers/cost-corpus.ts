/**
 * Corpora for the cost tests (issue 40 item 4): a small one whose answers are worked out by hand
 * (which models are separated, dominated, the cheapest not separated from the leader), and
 * random ones with tokens, latency, clusters and dated prices. Both are written from scratch:
 * one model-comparison axis `quiz`, nothing else.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../../demo/generate.js';
import { writeQuizCorpus } from './quiz-corpus.js';

export const AS_OF = '2026-11-01T00:00:00Z';

export interface CostRow {
  item: string;
  model: string;
  gold: string;
  label: string | null;
  cluster?: string;
  input_tokens?: number | null;
  output_tokens?: number | null;
  latency_ms?: number | null;
}

export interface PriceRow {
  model: string;
  input_usd_per_mtok: number;
  output_usd_per_mtok: number;
  read_on: string;
  source?: string;
  url?: string;
}

/** Writes a one-axis corpus: `quiz` over labels A and B; `prices` as prices.json when given. */
export function writeCorpus(rows: readonly CostRow[], prices?: readonly PriceRow[], own: string[] = []): string {
  const dir = writeQuizCorpus({
    rows: rows.map((r) => JSON.stringify(r)),
    issuer: 'Cost test issuer (registry 1)',
    asOf: AS_OF,
    own,
  });
  if (prices !== undefined)
    writeFileSync(
      join(dir, 'prices.json'),
      `${JSON.stringify({ schema: 'svc.gspc-corpus-prices/1', prices }, null, 2)}\n`,
    );
  return dir;
}

/**
 * The corpus worked out by hand. 60 items, gold A; each model is right on its first k items
 * (so every pair's discordant items all go one way: b = the difference of the k, c = 0):
 *
 * | model       | k  | tokens in/out per row   | price in/out per Mtok     | cost per row |
 * |-------------|----|-------------------------|---------------------------|--------------|
 * | h/top       | 60 | 1000 / 500              | 3 / 15 (read 2026-10-01)  | 0.0105       |
 * | h/near      | 58 | 1000 / 200, items 10-59 | 1 / 5                     | 0.002        |
 * | h/mid       | 40 | 1000 / 300              | 2 / 10                    | 0.005        |
 * | h/unpriced  | 39 | 1000 / 300              | only one read 2026-11-15  | none         |
 * | h/low       | 20 | 1000 / 100              | 10 / 10                   | 0.011        |
 * | h/own (own) | 59 | 1000 / 100              | 0.1 / 0.1                 | 0.00011      |
 * | h/thrifty   | 10 | 1000 / 0                | 1 / 1                     | 0.001        |
 *
 * Pairs: b = 1 or 2 is a TIE (fewer than 6 discordant items), b ≥ 18 is SEPARATED after Holm
 * over the 15 public pairs. So: leader h/top, its group [h/top, h/near]; the cheapest of them
 * h/near; h/mid dominated by h/near (separated above it, 0.002 ≤ 0.005) and not by h/top
 * (0.0105 > 0.005); h/low dominated by h/top, h/near and h/mid; h/unpriced has no cost (its only
 * price was read after the release's day), so its dominance is null; h/thrifty is cheaper than
 * every priced model above it, but h/unpriced is separated above it and has no cost, so whether it
 * is dominated is unknown (null); h/top and h/near are not dominated; h/own is never compared.
 */
export function handCorpus(): string {
  const spec = [
    { model: 'h/top', k: 60, out: 500 },
    { model: 'h/near', k: 58, out: 200, tokensFrom: 10 },
    { model: 'h/mid', k: 40, out: 300 },
    { model: 'h/unpriced', k: 39, out: 300 },
    { model: 'h/low', k: 20, out: 100 },
    { model: 'h/own', k: 59, out: 100 },
    { model: 'h/thrifty', k: 10, out: 0 },
  ];
  const rows: CostRow[] = [];
  for (let i = 0; i < 60; i++)
    for (const s of spec) {
      const row: CostRow = {
        item: `q${String(i).padStart(2, '0')}`,
        model: s.model,
        gold: 'A',
        label: i < s.k ? 'A' : 'B',
      };
      if (i >= (s.tokensFrom ?? 0))
        Object.assign(row, { input_tokens: 1000, output_tokens: s.out, latency_ms: 800 + i });
      rows.push(row);
    }
  const prices: PriceRow[] = [
    { model: 'h/top', input_usd_per_mtok: 4, output_usd_per_mtok: 20, read_on: '2026-09-01', source: 'price page' },
    {
      model: 'h/top',
      input_usd_per_mtok: 3,
      output_usd_per_mtok: 15,
      read_on: '2026-10-01',
      url: 'https://example.org/top',
    },
    { model: 'h/top', input_usd_per_mtok: 1, output_usd_per_mtok: 1, read_on: '2026-12-01', source: 'a later cut' },
    { model: 'h/near', input_usd_per_mtok: 1, output_usd_per_mtok: 5, read_on: '2026-10-20', source: 'contract' },
    { model: 'h/mid', input_usd_per_mtok: 2, output_usd_per_mtok: 10, read_on: '2026-11-01', source: 'price page' },
    { model: 'h/unpriced', input_usd_per_mtok: 1, output_usd_per_mtok: 1, read_on: '2026-11-15', source: 'too late' },
    { model: 'h/low', input_usd_per_mtok: 10, output_usd_per_mtok: 10, read_on: '2026-01-01', source: 'price page' },
    { model: 'h/own', input_usd_per_mtok: 0.1, output_usd_per_mtok: 0.1, read_on: '2026-10-01', source: 'our own' },
    { model: 'h/thrifty', input_usd_per_mtok: 1, output_usd_per_mtok: 1, read_on: '2026-10-01', source: 'price page' },
  ];
  return writeCorpus(rows, prices, ['h/own']);
}

/**
 * A random corpus: 6 models on 120 items (some rows missing, some unparsed), tokens and latency
 * on most rows (each count absent or null on about a tenth of r/beta's and r/gamma's rows, so
 * their costs cover part of their rows; on every row of the others but one, which has none), several
 * dated prices per model (some read after the release's day, one model without any), clusters
 * of four items on odd seeds. Skills differ enough that some pairs separate and some do not.
 */
export function randomCostCorpus(seed: number): string {
  const next = prng(seed);
  const models = ['r/alpha', 'r/beta', 'r/gamma', 'r/delta', 'r/epsilon', 'r/silent'];
  const skill = [0.9, 0.85, 0.6, 0.55, 0.35, 0.7];
  const rows: CostRow[] = [];
  for (let i = 0; i < 120; i++) {
    const item = `r${String(i).padStart(3, '0')}`;
    const gold = next() < 0.5 ? 'A' : 'B';
    const prompt = 50 + Math.floor(next() * 900);
    models.forEach((model, k) => {
      if (next() < 0.04) return;
      const label = next() < 0.05 ? null : next() < skill[k]! ? gold : gold === 'A' ? 'B' : 'A';
      const row: CostRow = { item, model, gold, label };
      if (seed % 2 === 1) row.cluster = `p${Math.floor(i / 4)}`;
      const partial = model === 'r/beta' || model === 'r/gamma';
      const drop = () => (next() < 0.1 && partial ? (next() < 0.5 ? 'absent' : 'null') : 'keep');
      const inDrop = drop();
      const outDrop = drop();
      const out = Math.floor(next() * 200 * (k + 1));
      if (model !== 'r/silent') {
        if (inDrop !== 'absent') row.input_tokens = inDrop === 'keep' ? prompt : null;
        if (outDrop !== 'absent') row.output_tokens = outDrop === 'keep' ? out : null;
        row.latency_ms = Math.round(next() * 5_000_000) / 1000;
      }
      rows.push(row);
    });
  }
  const day = (m: number, d: number) => `2026-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const prices: PriceRow[] = [];
  for (const model of models) {
    if (model === 'r/delta') continue; // no price at all
    const count = 1 + Math.floor(next() * 3);
    const days = new Set<string>();
    for (let j = 0; j < count; j++) days.add(day(8 + Math.floor(next() * 5), 1 + Math.floor(next() * 28)));
    for (const read_on of days)
      prices.push({
        model,
        input_usd_per_mtok: Math.round(next() * 1500) / 100,
        output_usd_per_mtok: Math.round(next() * 6000) / 100,
        read_on,
        source: `price page of ${model}`,
      });
  }
  return writeCorpus(rows, prices);
}
