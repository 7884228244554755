/**
 * The agent surfaces verify cards as POST /api/verify does, away from the DID's host too (issue
 * 36): a replica's MCP `verify_card` tool and A2A card-verification skill check the cards under
 * the keys the DID's host serves (src/serve/card-verification.ts, one function for all three),
 * never under the replica's own. Through the official MCP client and the official A2A client,
 * against replicas of one origin (test/helpers/host-views.ts), each with its own public URL:
 * - the host up and serving the replica's keys: VALID;
 * - the host serving other keys: INVALID, key_anchor naming both keys;
 * - the host down: UNVERIFIABLE_KEY, never VALID.
 * Each answer carries the same svc.card-verification/1 document as the replica's POST /api/verify.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Message, SendMessageRequest } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { buildApp } from '../../src/app.js';
import { BOARD_KEY } from '../../src/core/evidence/signer.js';
import { ServedState } from '../../src/serve/served-state.js';
import { hostOrigin, liveOf } from '../helpers/host-views.js';
import { freePort } from '../helpers/process.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers as JSON */
type Json = any;

const origin = await hostOrigin();
const { did: DID, K } = origin;
const ev = origin.release.evidence;
const card = [...ev.cards.values()].find((c) => !ev.withdrawn.has(c.sha256) && !ev.superseded.has(c.sha256))!;

/**
 * A replica of the origin's release with a public URL of its own (so its agent card sends the A2A
 * client to it), reading its keys at the DID's host; it reads the host once and keeps the answer.
 */
async function replica(): Promise<string> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const app = buildApp({
    state: new ServedState(origin.release, liveOf(DID, K)),
    logLevel: 'silent',
    baseUrl: url,
    keysAtDidHost: true,
  });
  after(() => app.close());
  await app.listen({ host: '127.0.0.1', port });
  return url;
}

/** The replica's answers to one card: POST /api/verify, MCP verify_card (by id) and A2A card-verification. */
async function answers(url: string) {
  const post = (await (
    await fetch(`${url}/api/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [card.sha256] }),
    })
  ).json()) as Json;
  const mcp = new McpClient({ name: 'test-verify-away', version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  const tool = (await mcp.callTool({ name: 'verify_card', arguments: { id: card.sha256 } })) as Json;
  await mcp.close();
  const a2a = await new ClientFactory().createFromUrl(url);
  const reply = await a2a.sendMessage(
    SendMessageRequest.fromJSON({
      message: {
        messageId: `m-${card.sha256.slice(0, 8)}`,
        role: 'ROLE_USER',
        parts: [{ text: 'verify this card' }, { data: card, mediaType: 'application/json' }],
      },
    }),
  );
  assert.ok('messageId' in reply, 'answered with a Message');
  const message = Message.toJSON(reply) as Json;
  assert.equal(message.metadata.skill, 'card-verification');
  return {
    post,
    mcp: { text: tool.content[0].text as string, doc: tool.structuredContent },
    a2a: { text: message.parts[0].text as string, doc: message.parts[1].data },
  };
}

/** The three verdicts are one: MCP's and A2A's documents are the replica's POST /api/verify answer. */
async function verdicts(url: string) {
  const a = await answers(url);
  assert.deepEqual(a.mcp.doc, a.post, 'MCP verify_card answers what POST /api/verify answers');
  assert.deepEqual(a.a2a.doc, a.post, 'A2A card-verification answers what POST /api/verify answers');
  return a;
}

describe('MCP verify_card and A2A card-verification on a replica, under the keys of its DID’s host', () => {
  it('the host serving the replica’s keys: VALID', async () => {
    origin.present();
    const a = await verdicts(await replica());
    assert.equal(a.post.results[0].result, 'VALID', JSON.stringify(a.post));
    assert.equal(a.post.key_anchor.result, 'VALID');
    assert.match(a.mcp.text, /^VALID: card /);
    assert.match(a.a2a.text, /^Checked 1 card\(s\): 1 VALID, 0 INVALID, 0 UNVERIFIABLE_KEY\.\nKeys at the DID's host/);
  });

  it('the host serving other keys: INVALID, naming the keys', async () => {
    origin.present(origin.keyDocs(origin.stranger, []));
    try {
      const a = await verdicts(await replica());
      assert.equal(a.post.results[0].result, 'INVALID');
      assert.equal(a.post.key_anchor.result, 'INVALID');
      const named = `#${BOARD_KEY}: the view serves ${K.board.x}, the DID's host ${origin.stranger.x}`;
      assert.ok(a.post.key_anchor.detail.includes(named), a.post.key_anchor.detail);
      assert.deepEqual(a.post.summary, { checked: 1, valid: 0, invalid: 1, unverifiable: 0 });
      assert.ok(a.mcp.text.startsWith('INVALID: key_anchor: ') && a.mcp.text.includes(named), a.mcp.text);
      assert.match(a.a2a.text, /^Checked 1 card\(s\): 0 VALID, 1 INVALID, 0 UNVERIFIABLE_KEY\./);
      assert.ok(a.a2a.text.includes(named), a.a2a.text);
    } finally {
      origin.present();
    }
  });

  it('the host down: UNVERIFIABLE_KEY, never VALID', async () => {
    await origin.front.down();
    try {
      const a = await verdicts(await replica());
      assert.equal(a.post.results[0].result, 'UNVERIFIABLE_KEY');
      assert.equal(a.post.key_anchor.result, 'UNVERIFIABLE_KEY');
      assert.deepEqual(a.post.summary, { checked: 1, valid: 0, invalid: 0, unverifiable: 1 });
      assert.match(a.mcp.text, /^UNVERIFIABLE_KEY: key_anchor: .*could not be/);
      assert.match(a.a2a.text, /^Checked 1 card\(s\): 0 VALID, 0 INVALID, 1 UNVERIFIABLE_KEY\./);
      assert.match(a.a2a.text, /\nKeys at the DID's host \(key_anchor\): UNVERIFIABLE_KEY: /);
    } finally {
      await origin.front.up();
    }
  });
});
