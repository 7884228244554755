/**
 * An UNTESTED pair is not a tie (review of issue 39). On the demo's `continuity` (published
 * aggregates only: no pair can be tested, m = 0) no tie group or range is given, with the reason,
 * and the leader's group says its pairs are UNTESTED, on the document, the page and MCP alike.
 * An aggregate-only axis declaring a one-label menu is refused like one whose rows have one label.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mcpTool } from '../../bench/agent-answers.js';
import { composeService } from '../../src/app.js';
import type { ModelsDocument } from '../../src/core/board/models-document.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy } from '../helpers/tmp.js';

describe('an UNTESTED pair is never presented as a tie', async () => {
  const { app, state } = demoApp();
  const doc = (await app.inject('/api/models?axis=continuity')).json() as ModelsDocument;

  it('continuity (m = 0): no letters or ranges, the reason, and the leader group says UNTESTED', () => {
    assert.equal(doc.m, 0);
    assert.equal(doc.untested_pairs, 1);
    assert.equal(doc.groups, null);
    assert.match(doc.groups_reason!, /^no public pair was tested \(no published per-item rows/);
    for (const m of doc.models) assert.deepEqual([m.tie_groups, m.not_separated], [null, null], m.model);
    assert.deepEqual(doc.leader_group, ['demo/atlas-70b', 'demo/borealis-34b']);
    assert.deepEqual(doc.leader_untested, ['demo/borealis-34b']);
  });

  it('the page and MCP say it was not tested, not that they tie', async () => {
    const page = (await app.inject('/dashboard/axes/continuity')).body;
    assert.match(page, /data-field="groups">none given</);
    assert.match(page, /id="axis-groups-reason">No tie-group letters: no public pair was tested/);
    assert.match(page, /demo\/borealis-34b \(UNTESTED\)\. Of these, none was tested and found a TIE/);
    const ctx = composeService({ state, baseUrl: 'http://localhost:8080' }).read;
    const r = await mcpTool('gspc_axis').run({ axis: 'continuity' }, ctx);
    const text = (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    assert.match(text, /no tie groups: no public pair was tested/);
    assert.match(text, /demo\/borealis-34b \(UNTESTED\)\. None was tested and found a TIE/);
    assert.doesNotMatch(text, /a: demo\/atlas-70b, demo\/borealis-34b/);
  });

  it('an aggregate-only axis declaring one label is a refused bank, on the board and /api/models', async () => {
    const dir = demoCopy();
    const file = join(dir, 'axes', 'continuity.json');
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), labels: ['yes'] }));
    const { app: refused } = demoApp(dir);
    const row = (await refused.inject('/api/gspc?axis=continuity')).json().axes[0];
    assert.equal(row.bank_state, 'REFUSED_ONE_LABEL_MENU');
    assert.equal(row.separation, 'UNTESTED');
    const d = (await refused.inject('/api/models?axis=continuity')).json() as ModelsDocument;
    assert.equal(d.bank_state, 'REFUSED_ONE_LABEL_MENU');
    for (const m of d.models) assert.deepEqual([m.accuracy, m.rank], [null, null], m.model);
  });
});
