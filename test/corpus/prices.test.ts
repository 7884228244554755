/**
 * `prices.json` (issue 40 item 4): the schema accepts what docs/formats.md says and refuses the
 * rest at file:line, with the corpus's other problems (corpus_invalid); a price for a model with
 * no rows, and two prices of one model on one day, are refused; absent optional fields stay
 * absent; the file is published and listed in the per-item manifest (role `prices`).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildPeritemManifest } from '../../src/core/board/peritem-manifest.js';
import type { CorpusProblem, GspcError } from '../../src/core/errors.js';
import { formatProblem } from '../../src/core/errors.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { gspc } from '../helpers/cli.js';
import { handCorpus, writeCorpus, type CostRow } from '../helpers/cost-corpus.js';

const ROWS: CostRow[] = ['q1', 'q2'].flatMap((item) =>
  ['p/one', 'p/two'].map((model) => ({ item, model, gold: 'A', label: 'A', input_tokens: 10, output_tokens: 2 })),
);

const problemsOf = (dir: string): string[] => {
  try {
    readCorpus(dir);
    return [];
  } catch (e) {
    const problems = (e as GspcError).details?.problems as CorpusProblem[] | undefined;
    if (problems === undefined) throw e;
    return problems.map(formatProblem);
  }
};

/** The corpus with `text` as its prices.json, verbatim. */
function withPricesText(text: string): string {
  const dir = writeCorpus(ROWS);
  writeFileSync(join(dir, 'prices.json'), text);
  return dir;
}

/** One price a line, so each problem's line is the price's. */
const lines = (prices: unknown[]) =>
  `{\n"schema": "svc.gspc-corpus-prices/1",\n"prices": [\n${prices.map((p) => JSON.stringify(p)).join(',\n')}\n]\n}\n`;

const OK = {
  model: 'p/one',
  input_usd_per_mtok: 3,
  output_usd_per_mtok: 15,
  read_on: '2026-10-01',
  source: 'price page',
};

describe('prices.json', () => {
  it('is optional: a corpus without one reads no prices', () => {
    assert.deepEqual(readCorpus(writeCorpus(ROWS)).prices, []);
  });

  it('accepts dated prices with a source, a url or both, 0 as a stated price, several days per model', () => {
    const prices = [
      OK,
      {
        url: 'https://example.org/prices?m=one',
        read_on: '2026-11-01',
        output_usd_per_mtok: 12,
        input_usd_per_mtok: 2.5,
        model: 'p/one',
      },
      {
        model: 'p/two',
        input_usd_per_mtok: 0,
        output_usd_per_mtok: 0,
        read_on: '2026-10-01',
        source: 'self-hosted',
        url: 'https://example.org/x',
      },
    ];
    const c = readCorpus(withPricesText(lines(prices)));
    // Fields in the canonical order; nothing defaulted (no source where only a url was given).
    assert.deepEqual(c.prices, [
      OK,
      {
        model: 'p/one',
        input_usd_per_mtok: 2.5,
        output_usd_per_mtok: 12,
        read_on: '2026-11-01',
        url: 'https://example.org/prices?m=one',
      },
      prices[2],
    ]);
    assert.deepEqual(Object.keys(c.prices[1]!), [
      'model',
      'input_usd_per_mtok',
      'output_usd_per_mtok',
      'read_on',
      'url',
    ]);
    const file = c.files.find((f) => f.path === 'prices.json');
    assert.ok(file, 'published with the corpus');
    const { manifest } = buildPeritemManifest('2026-11-01T00:00:00Z', [
      { path: file.path, sha256: file.sha256, bytes: file.bytes.length },
    ]);
    assert.deepEqual([manifest.files[0]!.url, manifest.files[0]!.role], ['/peritem/prices.json', 'prices']);
  });

  it('refuses each bad value at its line, with the field and why', () => {
    const bad = [
      { ...OK, input_usd_per_mtok: -1 }, // line 4
      { ...OK, read_on: '2026-10-02', output_usd_per_mtok: '15' }, // 5
      { ...OK, read_on: '2026-02-30' }, // 6
      { ...OK, read_on: '1 Oct 2026' }, // 7
      { model: 'p/one', input_usd_per_mtok: 1, output_usd_per_mtok: 1, read_on: '2026-10-03' }, // 8
      { ...OK, read_on: '2026-10-04', url: 'http://example.org/' }, // 9
      { ...OK, read_on: '2026-10-05', url: 'https://user:pw@example.org/' }, // 10
      { ...OK, read_on: '2026-10-06', currency: 'EUR' }, // 11
      { ...OK, read_on: '2026-10-07', input_usd_per_mtok: 2_000_000 }, // 12
      { ...OK, read_on: '2026-10-08', source: ' padded' }, // 13
    ];
    const problems = problemsOf(withPricesText(lines(bad)));
    const expect = [
      /^prices\.json:4 prices\.0\.input_usd_per_mtok: must be at least 0/,
      /^prices\.json:5 prices\.1\.output_usd_per_mtok: must be a number/,
      /^prices\.json:6 prices\.2\.read_on: is not a real date/,
      /^prices\.json:7 prices\.3\.read_on: must be an ISO 8601 date/,
      /^prices\.json:8 prices\.4\.source: a price says where it was read/,
      /^prices\.json:9 prices\.5\.url: must be an absolute https:\/\/ URL/,
      /^prices\.json:10 prices\.6\.url: must be an absolute https:\/\/ URL without user or password/,
      /^prices\.json:11 prices\.7: .*currency/,
      /^prices\.json:12 prices\.8\.input_usd_per_mtok: must be at most 1,000,000/,
      /^prices\.json:13 prices\.9\.source: must not start or end with white space/,
    ];
    for (const re of expect)
      assert.ok(
        problems.some((p) => re.test(p)),
        `${re} in:\n${problems.join('\n')}`,
      );
    assert.equal(problems.length, expect.length, problems.join('\n'));
  });

  it('refuses 1e400 (JSON reads it as infinity), a wrong schema string and a top-level key', () => {
    const text = `{\n"schema": "svc.gspc-corpus-prices/1",\n"prices": [\n{"model": "p/one", "input_usd_per_mtok": 1e400, "output_usd_per_mtok": 1, "read_on": "2026-10-01", "source": "x"}\n]\n}\n`;
    assert.match(problemsOf(withPricesText(text)).join('\n'), /^prices\.json:4 prices\.0\.input_usd_per_mtok: /m);
    assert.match(
      problemsOf(withPricesText('{"schema": "svc.gspc-corpus-prices/2", "prices": []}')).join('\n'),
      /prices\.json:1 schema: /,
    );
    assert.match(
      problemsOf(withPricesText('{"schema": "svc.gspc-corpus-prices/1", "prices": [], "note": "x"}')).join('\n'),
      /prices\.json:1: Unrecognized key: "note"/,
    );
  });

  it('refuses a price for a model with no rows (decision CO2) and two prices of one model on one day', () => {
    const problems = problemsOf(
      withPricesText(lines([OK, { ...OK, model: 'p/One' }, { ...OK, input_usd_per_mtok: 4, source: 'another page' }])),
    );
    assert.deepEqual(problems, [
      "prices.json:5 prices.1.model: 'p/One' has no rows or results on any model-comparison axis: a price is for a measured model",
      "prices.json:6 prices.2.read_on: 'p/one' has a price read on 2026-10-01 already (prices.0): one price per model and day",
    ]);
  });
});

describe('gspc validate says which models /api/cost will give no cost, or a cost over part of their rows', () => {
  it('every price read after the release day; a price without token counts; token counts without a price; partial coverage', async () => {
    const rows: CostRow[] = [...handRowsOf(handCorpus())];
    // p/no-tokens: priced, no counts; p/no-price: counts, no price.
    for (const item of ['q00', 'q01'])
      rows.push(
        { item, model: 'p/no-tokens', gold: 'A', label: 'A' },
        { item, model: 'p/no-price', gold: 'A', label: 'A', input_tokens: 5, output_tokens: 5 },
      );
    const prices = [
      ...JSON.parse(readFileSync(join(handCorpus(), 'prices.json'), 'utf8')).prices,
      { model: 'p/no-tokens', input_usd_per_mtok: 1, output_usd_per_mtok: 1, read_on: '2026-10-01', source: 'x' },
    ];
    const r = await gspc(['validate', writeCorpus(rows, prices, ['h/own'])]);
    assert.equal(r.status, 0, r.stderr);
    for (const expected of [
      "prices.json read_on: model 'h/unpriced': every price was read after the release's day (2026-11-01): /api/cost gives it no cost",
      "prices.json prices: model 'p/no-price': its rows carry token counts but the price list has no price for it: /api/cost gives it no cost (never 0)",
      "prices.json prices: model 'p/no-tokens': it has a price but none of its rows carries both input_tokens and output_tokens: /api/cost gives it no cost (never 0)",
      "peritem/quiz.jsonl input_tokens, output_tokens: model 'h/near': 50 of 60 rows carry both; /api/cost gives its cost over those 50, the other 10 are not costed (not 0), and compares that cost with no other model (decision CO10)",
    ])
      assert.ok(r.stderr.includes(expected), `missing notice: ${expected}\n${r.stderr}`);
    assert.ok(!/model 'h\/top'/.test(r.stderr), 'a model priced and fully covered is not named');
  });

  it('a corpus without a price list says nothing about cost', async () => {
    const r = await gspc(['validate', writeCorpus(ROWS)]);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!/\/api\/cost/.test(r.stderr), r.stderr);
  });
});

/** The rows of a corpus written by writeCorpus. */
function handRowsOf(dir: string): CostRow[] {
  return readFileSync(join(dir, 'peritem', 'quiz.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as CostRow);
}
