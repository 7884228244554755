/**
 * The chain reader against a scripted JSON-RPC server: every way an endpoint can fail is a
 * `chain_unavailable` error naming the endpoint's origin only (provider URLs carry API keys),
 * and an answer that does not match what was asked never counts as a used authorization.
 * The real token is read in reconcile.e2e.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { GspcError } from '../../src/core/errors.js';
import { AUTHORIZATION_USED_TOPIC, createChainReader } from '../../src/payments/chain-reader.js';

const ASSET = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const PAYER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const NONCE = `0x${'ab'.repeat(32)}`;
const TX = `0x${'cd'.repeat(32)}`;
const word = (a: string) => `0x${'0'.repeat(24)}${a.slice(2)}`;

type Script = (req: { id: number; method: string; params: unknown[] }, res: ServerResponse) => void;
let script: Script;
let base: string;
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req.on('data', (d) => {
    body += d;
  });
  req.on('end', () => script(JSON.parse(body) as Parameters<Script>[0], res));
});
const answer = (res: ServerResponse, body: unknown, status = 200) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const result =
  (value: unknown): Script =>
  (req, res) =>
    answer(res, { jsonrpc: '2.0', id: req.id, result: value });

before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

async function unavailable(p: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof GspcError && e.code === 'chain_unavailable', String(e));
    assert.match(e.message, message);
    assert.doesNotMatch(e.message, /KEY123/, 'the path (an API key) is never shown');
    return true;
  });
}

describe('chain reader (scripted JSON-RPC endpoint)', () => {
  const reader = (o = {}) => createChainReader(`${base}/v2/KEY123?apikey=KEY123`, { timeoutMs: 5000, ...o });

  it('sends eth_call of authorizationState(authorizer, nonce) at the given block and reads the bool', async () => {
    let seen: unknown;
    script = (req, res) => {
      seen = req;
      answer(res, { jsonrpc: '2.0', id: req.id, result: `0x${'0'.repeat(63)}1` });
    };
    assert.equal(await reader().authorizationState(ASSET, PAYER.toUpperCase().replace('0X', '0x'), NONCE, 255n), true);
    const { method, params } = seen as { method: string; params: unknown[] };
    assert.equal(method, 'eth_call');
    assert.deepEqual(params, [{ to: ASSET, data: `0xe94a0102${word(PAYER).slice(2)}${NONCE.slice(2)}` }, '0xff']);
    script = result(`0x${'0'.repeat(64)}`);
    assert.equal(await reader().authorizationState(ASSET, PAYER, NONCE), false);
  });

  it('an answer that is not a bool, or no code at the asset, is refused', async () => {
    script = result('0x');
    await unavailable(
      reader().authorizationState(ASSET, PAYER, NONCE),
      /eth_call: 0x8335.* returned nothing for authorizationState/,
    );
    script = result(`0x${'0'.repeat(63)}2`);
    await unavailable(reader().authorizationState(ASSET, PAYER, NONCE), /not a bool/);
  });

  it('eth_getLogs: only a log matching address, topics and not removed gives the transaction', async () => {
    const log = {
      address: ASSET,
      topics: [AUTHORIZATION_USED_TOPIC, word(PAYER), NONCE],
      transactionHash: TX.toUpperCase().replace('0X', '0x'),
      removed: false,
    };
    script = result([log]);
    assert.equal(await reader().authorizationUsedTx(ASSET, PAYER, NONCE, 10n), TX);
    // A provider that ignored the filter, or a log dropped by a reorganisation, settles nothing.
    script = result([
      { ...log, topics: [AUTHORIZATION_USED_TOPIC, word(PAYER), `0x${'00'.repeat(32)}`] },
      { ...log, removed: true },
      { ...log, address: PAYER },
    ]);
    assert.equal(await reader().authorizationUsedTx(ASSET, PAYER, NONCE, 10n), null);
    script = result([]);
    assert.equal(await reader().authorizationUsedTx(ASSET, PAYER, NONCE, 0n), null);
    script = result({ not: 'a list' });
    await unavailable(reader().authorizationUsedTx(ASSET, PAYER, NONCE, 0n), /eth_getLogs: the answer is not a list/);
  });

  it("transferInTransaction wants a successful receipt with this authorization's AuthorizationUsed(payer, nonce) and Transfer(payer → payTo, ≥ value) of the asset", async () => {
    const to = `0x${'22'.repeat(20)}`;
    const transfer = {
      address: ASSET,
      topics: [`0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef`, word(PAYER), word(to)],
      data: `0x${(10_000).toString(16).padStart(64, '0')}`,
    };
    const usedLog = (nonce: string) => ({
      address: ASSET,
      topics: ['0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5', word(PAYER), nonce],
      data: '0x',
    });
    const used = usedLog(NONCE);
    const check = (receipt: unknown, value = '10000') => {
      script = result(receipt);
      return reader().transferInTransaction(TX, { asset: ASSET, from: PAYER, to, value, nonce: NONCE });
    };
    assert.equal(await check({ status: '0x1', logs: [used, transfer] }), true);
    // Issue 37 review, finding 5: the same payer paying payTo the same amount with ANOTHER
    // authorization (or a plain transfer) in that transaction does not settle this one.
    assert.equal(await check({ status: '0x1', logs: [transfer] }), false);
    assert.equal(await check({ status: '0x1', logs: [usedLog(`0x${'ee'.repeat(32)}`), transfer] }), false);
    assert.equal(await check({ status: '0x1', logs: [{ ...used, address: to }, transfer] }), false);
    assert.equal(await check({ status: '0x1', logs: [used, transfer] }, '10001'), false);
    assert.equal(await check({ status: '0x0', logs: [used, transfer] }), false);
    assert.equal(await check({ status: '0x1', logs: [used, { ...transfer, address: to }] }), false);
    assert.equal(
      await check({
        status: '0x1',
        logs: [used, { ...transfer, topics: [transfer.topics[0], word(PAYER), word(PAYER)] }],
      }),
      false,
    );
    await unavailable(check(null), /no receipt for 0xcdcd/);
  });

  it('RPC errors, HTTP errors, non-JSON, a wrong id, a timeout and an oversized answer are chain_unavailable', async () => {
    script = (req, res) =>
      answer(res, { jsonrpc: '2.0', id: req.id, error: { code: -32005, message: 'limit exceeded' } });
    await unavailable(
      reader().chainId(),
      /^chain RPC http:\/\/127\.0\.0\.1:\d+ eth_chainId: error -32005: limit exceeded$/,
    );
    script = (_req, res) => answer(res, { error: 'rate limited' }, 429);
    await unavailable(reader().chainId(), /HTTP 429/);
    script = (_req, res) => res.writeHead(200).end('<html>gateway</html>');
    await unavailable(reader().chainId(), /not JSON/);
    script = (req, res) => answer(res, { jsonrpc: '2.0', id: req.id + 1, result: '0x2105' });
    await unavailable(reader().chainId(), /not a JSON-RPC response to this request/);
    script = () => undefined; // never answers
    await unavailable(reader({ timeoutMs: 100 }).chainId(), /no answer within 100 ms/);
    script = (req, res) => answer(res, { jsonrpc: '2.0', id: req.id, result: 'x'.repeat(5000) });
    await unavailable(reader({ maxResponseBytes: 1000 }).chainId(), /over the 1000-byte limit/);
    script = (req, res) => {
      res.writeHead(200);
      res.write('{"jsonrpc":"2.0",');
      res.end(` "id":${req.id}, "result":"${'0'.repeat(5000)}"}`);
    };
    await unavailable(reader({ maxResponseBytes: 1000 }).chainId(), /over the 1000-byte limit/);
    script = result('0x2105');
    assert.equal(await reader().chainId(), 8453);
    script = result({ number: '0x10', timestamp: '0x6774a3a0' });
    assert.deepEqual(await reader().latestBlock(), { number: 16n, timestamp: 0x6774a3a0n });
    script = result({ number: '16', timestamp: '0x1' });
    await unavailable(reader().latestBlock(), /malformed quantity "16"/);
  });
});
