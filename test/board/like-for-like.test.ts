/**
 * A mixed-shots corpus flags its pairs (issue 40 item 2): two real lm-eval COPA runs whose
 * results files say one model ran 0-shot and the other 5-shot (the real files with the `n-shot`
 * and `configs` a full results file carries) are never compared: /api/models, the board row, the
 * axis page, the MCP tool and the A2A skill all say "not like for like". A pair whose settings
 * cannot be compared is tested and says so beside its lead. Values shown on the page are escaped.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { composeService } from '../../src/app.js';
import { leadSentence, likeForLikeWords } from '../../src/core/board/lead-sentence.js';
import type { ModelsDocument } from '../../src/core/board/models-document.js';
import { axisLookup } from '../../src/surfaces/a2a/board-answers.js';
import { READER_TOOLS } from '../../src/surfaces/mcp/reader-tools.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';
import { runImport } from '../../src/cli/import-command.js';
import { HF, SSH } from '../import/helpers.js';
import { withShots } from '../import/lm-eval-shots.js';

type App = ReturnType<typeof demoApp>;

/** What the MCP tool `gspc_axis` and the A2A skill `axis-lookup` say about an axis. */
async function agentTexts({ state }: App, axis: string): Promise<[string, string]> {
  const ctx = composeService({ state, baseUrl: 'http://localhost:8080' }).read;
  const mcp = await READER_TOOLS.find((t) => t.name === 'gspc_axis')!.run({ axis }, ctx);
  const a2a = await axisLookup(
    { skill: 'axis-lookup', routedBy: 'metadata', axis, ids: [] },
    { ctx, verifyCards: async () => ({ status: 500, body: '' }), cardSignature: () => ({}) as never },
  );
  return [(mcp.content[0] as { text: string }).text, a2a.text];
}

describe('a mixed-shots corpus: two lm-eval COPA runs, 0-shot and 5-shot', async () => {
  const corpus = join(tempDir(), 'corpus');
  // Imported as an operator would, what it prints to stderr kept (the notices gspc validate gives).
  let err = '';
  await runImport(
    'lm-eval',
    [withShots(SSH, 0), withShots(HF, 5)],
    { into: corpus },
    {
      out: () => {},
      err: (t) => (err += t),
      tty: false,
    },
  );
  const served = demoApp(corpus);
  const doc = (await served.app.inject({ url: '/api/models?axis=copa' })).json() as ModelsDocument;

  it('/api/models: the pair is UNTESTED, not like for like, outside the Holm family; each model has its settings', () => {
    assert.equal(doc.schema, 'svc.gspc-models/0.4');
    assert.equal(doc.pairs.length, 1);
    const [p] = doc.pairs;
    assert.equal(p!.state, 'UNTESTED');
    assert.equal(p!.like_for_like, false);
    assert.deepEqual(p!.settings_differ, ['shots']);
    assert.match(
      p!.reason!,
      /^not like for like: .* were run with different settings \(shots (0 against 5|5 against 0)\)/,
    );
    assert.equal(doc.m, 0);
    assert.deepEqual(
      doc.models.map((m) => [m.model, m.settings?.shots, m.settings?.harness]),
      [
        ['hf-internal-testing/tiny-random-gpt2', 5, 'lm-eval'],
        ['sshleifer/tiny-gpt2', 0, 'lm-eval'],
      ],
    );
    // Before issue 40 this pair read TIE (b = 2, c = 6, p = 0.289): now it is not tested at all.
    assert.equal(p!.p, undefined);
  });

  it('gspc import (as gspc validate) says so before it is public', () => {
    assert.match(
      err,
      /runs\.json copa: 1 pair was run with settings that change the task and will not be compared \(UNTESTED, not like for like\): sshleifer\/tiny-gpt2 and hf-internal-testing\/tiny-random-gpt2 \(shots 0 against 5\)/,
    );
  });

  it('the board row refuses the separation with the same words', async () => {
    const row = ((await served.app.inject({ url: '/api/gspc?axis=copa' })).json() as any).axes[0];
    assert.equal(row.separation, 'UNTESTED');
    assert.equal(row.separation_basis, doc.pairs[0]!.reason);
  });

  it('the axis page, the MCP tool and the A2A skill say "not like for like"', async () => {
    const page = (await served.app.inject({ url: '/dashboard/axes/copa' })).body;
    assert.match(page, /data-like="false"/);
    assert.match(
      page,
      /id="axis-like-for-like"[^>]*>Not like for like: 1 pair run with settings that change the task is not compared/,
    );
    assert.match(page, /No lead to state: the board could not test its leader \(not like for like: /);
    const words = likeForLikeWords(doc);
    assert.match(words, /^Not like for like: 1 pair .*\(shots\)\.$/);
    for (const text of await agentTexts(served, 'copa')) assert.ok(text.includes(words), text);
  });
});

describe('settings that cannot be compared, and values with markup', () => {
  it('the lead is stated with what it assumes; a value with markup is escaped on the page', async () => {
    const dir = demoCopy();
    const run = (model: string, fields: Record<string, unknown>) => ({ model, axis: 'governance', ...fields });
    writeFileSync(
      join(dir, 'runs.json'),
      JSON.stringify({
        schema: 'svc.gspc-corpus-runs/1',
        runs: [
          run('demo/atlas-70b', { harness: 'lm-eval', shots: 0 }),
          run('demo/borealis-34b', { harness: 'lm-eval' }),
          run('demo/cirrus-8b', { harness: 'lm-eval', shots: 0, generation: { until: ['<script>x</script>'] } }),
          run('demo/dune-8b-ft', { harness: 'lm-eval', shots: 0, generation: { until: ['\n'] } }),
        ],
      }),
    );
    const served = demoApp(dir);
    const doc = (await served.app.inject({ url: '/api/models?axis=governance' })).json() as ModelsDocument;
    const sentence = leadSentence(doc, 'demo/atlas-70b', 'demo/borealis-34b')!;
    assert.match(
      sentence,
      /SEPARATED after Holm over 5 pairs.* Their run settings cannot be compared \(shots recorded for one of them only\): this assumes they were run alike\.$/,
    );
    const page = (await served.app.inject({ url: '/dashboard/axes/governance' })).body;
    assert.match(
      page,
      /id="axis-lead-settings"[^>]*>Their run settings cannot be compared \(shots recorded for one of them only\)/,
    );
    assert.match(page, /run settings not comparable \(shots for one only\)/);
    assert.ok(!page.includes('<script>x</script>'), 'a recorded value is text, never markup');
    assert.ok(page.includes('&lt;script&gt;x&lt;/script&gt;'));
    for (const text of await agentTexts(served, 'governance'))
      assert.ok(text.includes('this assumes they were run alike') && text.includes('Not like for like: 1 pair'), text);
  });
});
