/**
 * The lead in words (issues 29 and 39), on the demo and on real harness output: the figures of
 * /api/models, in points, with both accuracies on the shared items; plainly "too few" when too few
 * items differ for any test to separate; no MDD where the normal approximation fails; one line
 * when the board's SEPARATED sits beside a TIE after Holm; "1 item". The page, the MCP tool and the
 * A2A skill say the same words.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lead, leadSentence, pairOf, tieGroupsText } from '../../src/core/board/lead-sentence.js';
import type { ModelsDocument } from '../../src/core/board/models-document.js';
import { composeService } from '../../src/app.js';
import { axisLookup } from '../../src/surfaces/a2a/board-answers.js';
import { READER_TOOLS } from '../../src/surfaces/mcp/reader-tools.js';
import { demoApp } from '../helpers/app.js';
import { fixturePath } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';
import { importQuiet } from '../import/helpers.js';

const { app } = demoApp();
const docOf = async (a: typeof app, axis: string) =>
  (await a.inject({ url: `/api/models?axis=${axis}` })).json() as ModelsDocument;
const doc = await docOf(app, 'governance');
const rowOf = async (a: typeof app, axis: string) =>
  ((await a.inject({ url: `/api/gspc?axis=${axis}` })).json() as { axes: Record<string, any>[] }).axes[0]!;
const pageLead = (body: string, id: string) =>
  /<p class="callout" id="([^"]+)"/.test(body)
    ? (new RegExp(`<p class="callout" id="${id}"[^>]*>([\\s\\S]*?)</p>`).exec(body)?.[1] ?? '').replace(/&#39;/g, "'")
    : '';

describe('leadSentence', () => {
  it('names the lead, its interval, both accuracies on the shared items, the Holm family and what could not have been seen', () => {
    assert.equal(
      leadSentence(doc, 'demo/atlas-70b', 'demo/borealis-34b'),
      'demo/atlas-70b leads demo/borealis-34b by 13.5 points (95% interval 7.8 to 19.1): 85.5% against 72.0% on the 400 items both answered (SEPARATED after Holm over 6 pairs); a gap smaller than 8.3 points could not have been seen with 80% power at this n.',
    );
  });
  it('the other way round: the pair is turned, the difference and its interval negated', () => {
    const p = pairOf(doc, 'demo/borealis-34b', 'demo/atlas-70b')!;
    const q = pairOf(doc, 'demo/atlas-70b', 'demo/borealis-34b')!;
    assert.deepEqual([p.b, p.c, p.difference], [q.c, q.b, -q.difference!]);
    assert.deepEqual(p.difference_interval, [-q.difference_interval![1], -q.difference_interval![0]]);
    assert.match(
      leadSentence(doc, 'demo/borealis-34b', 'demo/atlas-70b')!,
      /^demo\/borealis-34b trails demo\/atlas-70b by 13\.5 points \(95% interval -19\.1 to -7\.8\): 72\.0% against 85\.5%/,
    );
  });
  it('equal accuracies on the shared items: level, never "leads by 0.0 points" (found by review)', () => {
    const level = structuredClone(doc);
    const p = pairOf(level, 'demo/atlas-70b', 'demo/borealis-34b')!;
    // The same pair with as many items each way: the difference is 0.
    const raw = level.pairs.find((x) => x === p || (x.first === p.first && x.second === p.second))!;
    raw.c = raw.b!;
    raw.difference = 0;
    raw.difference_interval = [-0.05, 0.05];
    const said = leadSentence(level, 'demo/atlas-70b', 'demo/borealis-34b')!;
    assert.match(said, /^demo\/atlas-70b is level with demo\/borealis-34b \(95% interval -5\.0 to 5\.0\)/);
    assert.doesNotMatch(said, /leads|trails|by 0\.0/);
  });
  it('tie groups by label, public models only', () => {
    assert.equal(tieGroupsText(doc), 'a: demo/atlas-70b; b: demo/borealis-34b, demo/dune-8b-ft; c: demo/cirrus-8b');
  });
  it('without an MDD (fewer than 20 discordant items) it says it is not estimated, never "smaller than 0 points"', async () => {
    const cross = await docOf(app, 'cross-reality');
    const row = await rowOf(app, 'cross-reality');
    const p = pairOf(cross, row.separation_evidence.leader.model, row.separation_evidence.next_best.model)!;
    assert.equal(p.mdd, null);
    const said = leadSentence(cross, row.separation_evidence.leader.model, row.separation_evidence.next_best.model)!;
    assert.match(
      said,
      /; with 10 items where they differ \(fewer than 20\), what gap this n could have seen is not estimated\.$/,
    );
    assert.ok(!said.includes('smaller than'));
  });
  it("jail: the board's SEPARATED beside a TIE after Holm is explained in one line", async () => {
    const jail = await docOf(app, 'jail');
    const row = await rowOf(app, 'jail');
    assert.equal(row.separation, 'SEPARATED');
    const l = lead(jail, row.separation_evidence.leader.model, row.separation_evidence.next_best.model, row)!;
    assert.match(l.sentence, /\(TIE after Holm over 6 pairs\)/);
    assert.equal(
      l.reconcile,
      'The board reads SEPARATED because it tests its leader against the best base model alone, unadjusted (p = 0.017); here every pair of public models is tested and corrected with Holm over 6 pairs (p_holm = 0.067), which this pair does not pass.',
    );
    // Where they agree, nothing to reconcile.
    const gov = await rowOf(app, 'governance');
    assert.equal(lead(doc, 'demo/atlas-70b', 'demo/borealis-34b', gov)!.reconcile, undefined);
  });
});

describe('the lead on real harness output: two Inspect popularity logs sharing one item', async () => {
  const corpus = join(tempDir(), 'corpus');
  await importQuiet(
    'inspect',
    [
      fixturePath('inspect', '2025-02-11T15-18-04-05-00_popularity_mj7khqpMM4GBCfVQozKgzB.eval'),
      fixturePath('inspect', 'log_formats.eval'),
    ],
    { into: corpus, axis: 'popularity' },
  );
  const { app: imported, state } = demoApp(corpus);
  const ctx = composeService({ state, baseUrl: 'http://localhost:8080' }).read;
  const popularity = await docOf(imported, 'popularity');

  it('the pair shares 1 item: no MDD or n_needed (the formula gave 280 points), each with its reason', () => {
    const p = pairOf(popularity, 'openai/gpt-4o-mini', 'ollama/llama3.1')!;
    assert.deepEqual([p.n_pairs, p.a, p.b, p.c, p.mdd, p.n_needed], [1, 0, 1, 0, null, null]);
    assert.match(p.mdd_reason!, /^only 1 discordant item \(b \+ c < 20\)/);
    // Overall they are 80% (8/10) and 0% (0/1): the lead speaks of the shared item only.
    assert.deepEqual(
      popularity.models.map((m) => [m.model, m.k, m.parsed]),
      [
        ['openai/gpt-4o-mini', 8, 10],
        ['ollama/llama3.1', 0, 1],
      ],
    );
  });

  it('the lead says plainly that 1 item is too few, with both accuracies on it, on the page, MCP and A2A alike', async () => {
    const expected =
      'openai/gpt-4o-mini and ollama/llama3.1 both answered 1 item; on it openai/gpt-4o-mini scored 100.0% and ollama/llama3.1 0.0%, and they differ on only 1: too few to say which is better (no test can separate two models on fewer than 6 items where they differ).';
    // llama3.1 ran at temperature 1.0 (plan.config); gpt-4o-mini's log records none: the lead
    // says what it assumes (issue 40 item 2, docs/methodology.md §12).
    const settings =
      'Their run settings cannot be compared (generation.temperature recorded for one of them only): this assumes they were run alike.';
    assert.equal(leadSentence(popularity, 'openai/gpt-4o-mini', 'ollama/llama3.1'), `${expected} ${settings}`);
    const page = (await imported.inject({ url: '/dashboard/axes/popularity' })).body;
    assert.equal(pageLead(page, 'axis-lead'), expected);
    assert.ok(page.includes(settings), 'the page says it beside the lead');
    assert.ok(!page.includes('1 items'), 'never "1 items"');
    assert.ok(!page.includes('280.'), 'no impossible MDD');
    const mcp = await READER_TOOLS.find((t) => t.name === 'gspc_axis')!.run({ axis: 'popularity' }, ctx);
    assert.ok((mcp.content[0] as { text: string }).text.includes(expected), 'the MCP tool');
    const a2a = await axisLookup(
      { skill: 'axis-lookup', routedBy: 'metadata', axis: 'popularity', ids: [] },
      { ctx, verifyCards: async () => ({ status: 500, body: '' }), cardSignature: () => ({}) as never },
    );
    assert.ok(a2a.text.includes(expected), 'the A2A skill');
  });
});
