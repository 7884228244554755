/**
 * Shared pools have per-client shares (issue 38, finding 7): one client could hold all 100 MCP
 * `subscriptions/listen` streams (others got "Subscription limit reached") and every AG-UI held
 * run slot. Now one client address holds at most a tenth of each: its next listen stream is a
 * 429 JSON-RPC error, its next held run finishes at once `busy`; another client is still served.
 */
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { demoApp } from '../helpers/app.js';

const SHARE = 10;
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Opened {
  status: number;
  /** What arrived within the first 400 ms. */
  text: string;
  res: IncomingMessage;
}

function open(port: number, from: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress: from,
        headers: {
          accept: 'application/json, text/event-stream',
          ...(payload !== undefined && {
            'content-type': 'application/json',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'subscriptions/listen',
          }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        setTimeout(() => resolve({ status: res.statusCode!, text, res }), 400);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const listen = (port: number, from: string) =>
  open(port, from, 'POST', '/mcp', {
    jsonrpc: '2.0',
    id: 1,
    method: 'subscriptions/listen',
    params: { _meta: ENVELOPE, notifications: { toolsListChanged: true } },
  });
const heldRun = (port: number, from: string) => open(port, from, 'GET', '/api/agui/gspc-state?hold_seconds=30');

describe('per-client shares of the shared pools (issue 38)', () => {
  let app: FastifyInstance;
  let port = 0;
  const opened: Opened[] = [];
  before(async () => {
    app = buildApp({ state: demoApp().state, logLevel: 'silent' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const o of opened) o.res.destroy();
    await app.close();
  });

  it(`MCP listen streams: ${SHARE} per client, the next a 429 JSON-RPC error; another client still listens`, async () => {
    for (let i = 0; i < SHARE; i++) {
      const o = await listen(port, '127.0.0.2');
      opened.push(o);
      assert.equal(o.status, 200, `stream ${i + 1}: ${o.text}`);
    }
    const over = await listen(port, '127.0.0.2');
    opened.push(over);
    assert.equal(over.status, 429, over.text);
    const err = JSON.parse(over.text) as { error: { code: number; message: string } };
    assert.equal(err.error.code, -32000);
    assert.match(err.error.message, /at most 10/);
    const other = await listen(port, '127.0.0.3');
    opened.push(other);
    assert.equal(other.status, 200, other.text);
  });

  it(`AG-UI held runs: ${SHARE} per client, the next finishes at once busy; another client is held`, async () => {
    for (let i = 0; i < SHARE; i++) {
      const o = await heldRun(port, '127.0.0.4');
      opened.push(o);
      assert.doesNotMatch(o.text, /RUN_FINISHED/, `run ${i + 1} is held`);
    }
    const over = await heldRun(port, '127.0.0.4');
    opened.push(over);
    assert.match(over.text, /RUN_FINISHED[\s\S]*busy/, over.text.slice(-300));
    const other = await heldRun(port, '127.0.0.5');
    opened.push(other);
    assert.doesNotMatch(other.text, /RUN_FINISHED/, 'another client is held');
  });
});
