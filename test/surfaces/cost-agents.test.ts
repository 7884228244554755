/**
 * "The cheapest model not separated from the leader on <axis>" (issue 40 item 4), asked with the
 * official clients: MCP `gspc_cost` through the v2 client pinned to 2026-07-28 and the v1.32
 * client, and the A2A skill `cost-lookup` through `@a2a-js/sdk`'s client, against a listening app
 * over the corpus worked out by hand (test/helpers/cost-corpus.ts: the answer is the leader h/top at
 * $0.0105 per item, since h/near's $0.002 is over 50 of its 60 rows only and is not compared). Each answer carries the document `/api/cost?axis=` serves; an unknown
 * axis is refused as the route refuses it; at 300 models every answer stays within 64 kB and says
 * what it cut.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Message, SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory, type Client as A2AClient } from '@a2a-js/sdk/client';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { a2aDeps, bytes } from '../../bench/agent-answers.js';
import { buildApp, composeService } from '../../src/app.js';
import { readRailConfig } from '../../src/config.js';
import { keygen } from '../../src/keys/key-store.js';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { ServedState } from '../../src/serve/served-state.js';
import { costLookup } from '../../src/surfaces/a2a/cost-answers.js';
import { ANSWER_MAX_BYTES } from '../../src/surfaces/answer-budget.js';
import { costWords } from '../../src/surfaces/cost-answer.js';
import { COST_TOOL } from '../../src/surfaces/mcp/cost-tool.js';
import { demoApp, liveSigning } from '../helpers/app.js';
import { type CostRow, handCorpus, type PriceRow, writeCorpus } from '../helpers/cost-corpus.js';
import { freePort } from '../helpers/process.js';
import { tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON */

const CHEAPEST =
  /the cheapest model not separated from the leader \(h\/top\) is the leader itself, h\/top: \$0\.0105 per item/;

const port = await freePort();
const base = `http://localhost:${port}`;
const keyDir = join(tempDir(), 'keys');
keygen(keyDir);
const signing = signingContext(keyDir, `localhost:${port}`);
const state = new ServedState(
  loadRelease(publishRelease(handCorpus(), tempDir(), signing.inputs).dir),
  liveSigning(signing),
);
const app = buildApp({ state, logLevel: 'silent', baseUrl: base, products: { rail: readRailConfig({}) } });

interface ToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
interface McpClient {
  callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}
const mcpClients: [string, McpClient][] = [];
let a2a: A2AClient;

before(async () => {
  await app.listen({ port, host: 'localhost' });
  const url = new URL(`${base}/mcp`);
  const modern = new ClientV2(
    { name: 'cost-v2', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await modern.connect(new TransportV2(url));
  const v1 = new ClientV1({ name: 'cost-v1', version: '1' });
  await v1.connect(new TransportV1(url));
  mcpClients.push(
    ['v2 client, 2026-07-28', modern as unknown as McpClient],
    ['v1.32 client', v1 as unknown as McpClient],
  );
  a2a = await new ClientFactory().createFromUrl(base);
});
after(async () => {
  for (const [, c] of mcpClients) await c.close();
  await app.close();
});

const route = async (path: string) => {
  const r = await fetch(`${base}${path}`);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

async function ask(text: string, metadata?: Record<string, unknown>) {
  const r = await a2a.sendMessage(
    SendMessageRequest.fromJSON({
      message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }], ...(metadata && { metadata }) },
    }),
  );
  assert.ok('messageId' in r, 'answered with a Message');
  const json = Message.toJSON(r) as {
    parts: { text?: string; data?: unknown; metadata?: { source?: string } }[];
    metadata: { skill?: string; routed_by: string };
  };
  return {
    text: json.parts[0]!.text!,
    data: json.parts.slice(1).map((p) => p.data),
    sources: json.parts.slice(1).map((p) => p.metadata?.source),
    metadata: json.metadata,
  };
}

describe('MCP gspc_cost with the official clients', () => {
  it('names the cheapest model not separated from the leader, with its cost; structuredContent = GET /api/cost?axis=', async () => {
    const h = await route('/api/cost?axis=quiz');
    for (const [who, c] of mcpClients) {
      const r = (await c.callTool({ name: 'gspc_cost', arguments: { axis: 'quiz' } })) as ToolResult;
      assert.notEqual(r.isError, true, who);
      assert.deepEqual(r.structuredContent, h.body, `${who}: the route's document`);
      const text = r.content[0]!.text!;
      assert.match(text, CHEAPEST, who);
      assert.match(
        text,
        /Not separated from the leader \(2 models, leader first\): h\/top \$0\.0105 per item; h\/near \$0\.002 per item over 50 of 60 rows only/,
      );
      assert.match(
        text,
        /with a cost over part of their rows only, which is not compared .* so any may be cheaper: h\/near\./,
      );
      assert.match(
        text,
        /Dominated [^.]*: h\/low \(by h\/top and 1 more\)\./,
        'h/mid is not compared: h/near costs part of its rows',
      );
      assert.match(text, /6 of 7 models have a cost/);
      assert.match(text, /no price or no token counts is no cost, never 0/);
      assert.ok(!/UNTESTED/.test(text), 'h/near is a TIE with the leader, not UNTESTED');
    }
  });

  it("an unknown axis is the route's 404 body, as an isError result with the known axes", async () => {
    for (const [who, c] of mcpClients) {
      const r = (await c.callTool({ name: 'gspc_cost', arguments: { axis: 'nope' } })) as ToolResult;
      assert.equal(r.isError, true, who);
      assert.deepEqual(r.structuredContent, (await route('/api/cost?axis=nope')).body);
      assert.match(r.content[0]!.text!, /unknown_axis: unknown axis; known axes: quiz/);
    }
  });
});

describe('A2A cost-lookup with the official client', () => {
  it('the question in words routes to cost-lookup and is answered with the document the route serves', async () => {
    const r = await ask('Which is the cheapest model not separated from the leader on quiz?');
    assert.deepEqual([r.metadata.skill, r.metadata.routed_by], ['cost-lookup', 'keyword']);
    assert.match(r.text, CHEAPEST);
    assert.deepEqual(r.sources, ['GET /api/cost?axis=quiz']);
    assert.deepEqual(r.data[0], (await route('/api/cost?axis=quiz')).body);
  });

  it('"what do the models cost on quiz" is cost-lookup; "cost" without an axis is still the product catalogue; metadata names it', async () => {
    assert.equal((await ask('what do the models cost on quiz')).metadata.skill, 'cost-lookup');
    assert.equal((await ask('what does it cost')).metadata.skill, 'product-catalogue');
    const named = await ask('please', { skill: 'cost-lookup', axis: 'quiz' });
    assert.deepEqual([named.metadata.skill, named.metadata.routed_by], ['cost-lookup', 'metadata']);
    const unknown = await ask('cost-lookup nope');
    assert.match(unknown.text, /^No axis was named\. Model-comparison axes: quiz/);
  });

  it('is on the agent card', async () => {
    const card = (await route('/.well-known/agent-card.json')).body as { skills: { id: string; examples: string[] }[] };
    const skill = card.skills.find((s) => s.id === 'cost-lookup');
    assert.ok(skill);
    assert.deepEqual(skill.examples, ['cheapest model not separated from the leader on quiz', 'cost-lookup quiz']);
  });
});

describe('at 300 models, every cost answer stays within 64 kB and says what it cut', () => {
  it('MCP gspc_cost and A2A cost-lookup', async () => {
    const models = Array.from({ length: 300 }, (_, i) => `m/model-${String(i).padStart(3, '0')}-with-a-longer-name`);
    const rows: CostRow[] = [];
    for (let item = 0; item < 120; item++)
      models.forEach((model, i) =>
        rows.push({
          item: `q${item}`,
          model,
          gold: 'A',
          // Skill falls with i, and a model is right on its own spread of items (not nested sets).
          label: (item * 7 + i * 13) % 120 < 110 - Math.floor(i / 3) ? 'A' : 'B',
          input_tokens: 500 + i,
          output_tokens: 100 + ((i * 37) % 300),
        }),
      );
    const prices: PriceRow[] = models.map((model, i) => ({
      model,
      input_usd_per_mtok: 0.5 + (i % 17),
      output_usd_per_mtok: 2 + ((i * 5) % 23),
      read_on: '2026-10-01',
      source: 'a price page with a fairly long description of where this price was read',
    }));
    const bigState = new ServedState(
      loadRelease(publishRelease(writeCorpus(rows, prices), tempDir(), signing.inputs).dir),
      liveSigning(signing),
    );
    const ctx = composeService({ state: bigState, baseUrl: base }).read;
    const mcp = await COST_TOOL.run({ axis: 'quiz' }, ctx);
    const doc = (await ctx.documents.readPath('/api/cost?axis=quiz')).value as any;
    assert.ok(bytes(doc) > 4 * ANSWER_MAX_BYTES, `the document itself is large: ${bytes(doc)} bytes`);
    assert.ok(bytes(mcp) <= ANSWER_MAX_BYTES, `MCP: ${bytes(mcp)} bytes`);
    const text = (mcp.content[0] as { text: string }).text;
    assert.match(text, /the cheapest model not separated from the leader/);
    assert.match(text, /its lists are cut to their first entries \(models: \d+ of 300/);
    assert.equal((mcp._meta as any)['gspc/cut'].models.of, 300);
    const sc = mcp.structuredContent as any;
    assert.deepEqual(sc.cheapest_not_separated, doc.cheapest_not_separated, 'the answer itself is never cut');
    assert.deepEqual(sc.models, doc.models.slice(0, sc.models.length), 'the first models, in rank order');
    const a = await costLookup({ skill: 'cost-lookup', routedBy: 'metadata', axis: 'quiz', ids: [] }, a2aDeps(ctx));
    assert.ok(bytes(a) <= ANSWER_MAX_BYTES, `A2A: ${bytes(a)} bytes`);
    assert.match(a.text, /cut to their first entries \(models: \d+ of 300/);
  });
});

describe('the words', () => {
  it('a cheaper model whose pair with the leader is UNTESTED is not the cheapest: named as cheaper but never compared, not tied', async () => {
    const rows: CostRow[] = [];
    for (let i = 0; i < 30; i++) {
      rows.push({ item: `q${i}`, model: 'u/lead', gold: 'A', label: 'A', input_tokens: 100, output_tokens: 50 });
      rows.push({
        item: `z${i}`,
        model: 'u/apart',
        gold: 'A',
        label: i === 0 ? 'B' : 'A',
        input_tokens: 10,
        output_tokens: 5,
      });
    }
    const prices: PriceRow[] = ['u/lead', 'u/apart'].map((model) => ({
      model,
      input_usd_per_mtok: 1,
      output_usd_per_mtok: 1,
      read_on: '2026-10-01',
      source: 'price page',
    }));
    const { app } = demoApp(writeCorpus(rows, prices));
    const words = costWords((await app.inject({ url: '/api/cost?axis=quiz' })).json()).join(' ');
    assert.match(
      words,
      /the cheapest model not separated from the leader \(u\/lead\) is the leader itself, u\/lead: \$0\.00015 per item/,
    );
    assert.match(
      words,
      /Cheaper, but never compared with the leader \(their pairs with it are UNTESTED: not separated, but not shown tied either, so not named the cheapest\): u\/apart \$0\.000015 per item\./,
    );
    assert.match(words, /u\/apart \$0\.000015 per item \(UNTESTED with the leader\)/);
  });

  it('one model with a cost: "1 of 1 model has a cost"', async () => {
    const rows: CostRow[] = Array.from({ length: 3 }, (_, i) => ({
      item: `q${i}`,
      model: 'o/only',
      gold: 'A',
      label: 'A',
      input_tokens: 100,
      output_tokens: 10,
    }));
    const prices: PriceRow[] = [
      { model: 'o/only', input_usd_per_mtok: 1, output_usd_per_mtok: 1, read_on: '2026-10-01', source: 'price page' },
    ];
    const { app } = demoApp(writeCorpus(rows, prices));
    const words = costWords((await app.inject({ url: '/api/cost?axis=quiz' })).json()).join(' ');
    assert.match(words, /1 of 1 model has a cost:/);
    assert.match(words, /is the leader itself, o\/only: \$0\.00011 per item .* over all 3 of its rows/);
  });
});
