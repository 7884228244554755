/**
 * httpFacilitator keeps apart what matters for money: a settle that never reached the
 * facilitator (nothing moved) from one whose answer was lost (money may have moved). Real
 * HTTP servers on 127.0.0.1 answer, refuse, reset or stall.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { HTTPFacilitatorClient } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { httpFacilitator } from '../../src/payments/facilitator.js';
import { freePort } from '../helpers/process.js';

const requirements = {
  scheme: 'exact',
  network: 'eip155:8453',
  amount: '1',
  asset: `0x${'11'.repeat(20)}`,
  payTo: `0x${'22'.repeat(20)}`,
  maxTimeoutSeconds: 300,
  extra: {},
} as PaymentRequirements;
const payload = { x402Version: 2, accepted: requirements, payload: {} } as PaymentPayload;
const servers: Server[] = [];
after(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

async function serveWith(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const s = createServer(handler);
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
const json =
  (body: unknown, status = 200) =>
  (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

describe('httpFacilitator', () => {
  it('maps answers: valid, invalid with the reason, settled with the transaction, failed with the reason', async () => {
    const tx = `0x${'AB'.repeat(32)}`;
    const ok = await serveWith((req, res) =>
      json(
        req.url === '/verify'
          ? { isValid: true, payer: '0xp' }
          : { success: true, transaction: tx, network: 'eip155:8453', payer: '0xp' },
      )(req, res),
    );
    assert.deepEqual(await httpFacilitator(ok, 2000).verify(payload, requirements), { kind: 'valid', payer: '0xp' });
    assert.deepEqual(await httpFacilitator(ok, 2000).settle(payload, requirements), {
      kind: 'settled',
      transaction: tx.toLowerCase(),
      network: 'eip155:8453',
      payer: '0xp',
    });
    const no = await serveWith((req, res) =>
      json(
        req.url === '/verify'
          ? { isValid: false, invalidReason: 'insufficient_funds' }
          : { success: false, errorReason: 'invalid_transaction_state', transaction: '', network: 'eip155:8453' },
      )(req, res),
    );
    assert.equal(
      ((await httpFacilitator(no, 2000).verify(payload, requirements)) as { reason: string }).reason,
      'insufficient_funds',
    );
    assert.deepEqual(await httpFacilitator(no, 2000).settle(payload, requirements), {
      kind: 'failed',
      reason: 'invalid_transaction_state',
      message: undefined,
    });
  });

  it('success:false naming a transaction is pending with it, never failed, whatever the status (settlement_pending, a reverted transfer)', async () => {
    const tx = `0x${'CD'.repeat(32)}`;
    for (const [status, errorReason] of [
      [200, 'settlement_pending'],
      [200, 'invalid_transaction_state'],
      [500, 'settlement_pending'],
    ] as const) {
      const pending = await serveWith(
        json(
          { success: false, errorReason, errorMessage: 'receipt not seen', transaction: tx, network: 'eip155:8453' },
          status,
        ),
      );
      assert.deepEqual(await httpFacilitator(pending, 2000).settle(payload, requirements), {
        kind: 'pending',
        transaction: tx.toLowerCase(),
        reason: errorReason,
        message: 'receipt not seen',
      });
    }
    const garbled = await serveWith(
      json({ success: false, errorReason: 'x', transaction: '0x12', network: 'eip155:8453' }),
    );
    assert.equal((await httpFacilitator(garbled, 2000).settle(payload, requirements)).kind, 'unknown');
  });

  it('a refused connection is not_sent for settle and unavailable for verify', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    assert.equal((await httpFacilitator(closed, 2000).settle(payload, requirements)).kind, 'not_sent');
    assert.equal((await httpFacilitator(closed, 2000).verify(payload, requirements)).kind, 'unavailable');
  });

  it('a reset, a 5xx without an outcome, a stall past the timeout, or success without a transaction are unknown for settle', async () => {
    const reset = await serveWith((req) => {
      req.socket.destroy();
    });
    assert.equal((await httpFacilitator(reset, 2000).settle(payload, requirements)).kind, 'unknown');
    const down = await serveWith((_req, res) => {
      res.writeHead(503).end('down');
    });
    assert.equal((await httpFacilitator(down, 2000).settle(payload, requirements)).kind, 'unknown');
    const stall = await serveWith(() => {
      /* never answers */
    });
    assert.equal((await httpFacilitator(stall, 200).settle(payload, requirements)).kind, 'unknown');
    const noTx = await serveWith(json({ success: true, transaction: '', network: 'eip155:8453' }));
    assert.equal((await httpFacilitator(noTx, 2000).settle(payload, requirements)).kind, 'unknown');
  });

  it('sends the bytes the official HTTPFacilitatorClient sends (method, path, content type, body)', async () => {
    const seen: { client: string; method: string; path: string; type: string; body: string }[] = [];
    let client = '';
    const capture = await serveWith((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({
          client,
          method: req.method ?? '',
          path: req.url ?? '',
          type: String(req.headers['content-type']),
          body: Buffer.concat(chunks).toString('utf8'),
        });
        json(
          req.url === '/verify'
            ? { isValid: true, payer: '0xp' }
            : { success: true, transaction: `0x${'ab'.repeat(32)}`, network: 'eip155:8453' },
        )(req, res);
      });
    });
    const signed = {
      x402Version: 2,
      accepted: requirements,
      resource: { url: 'http://x/api/request-attestation?subject=m', description: 'd', mimeType: 'application/json' },
      payload: {
        signature: `0x${'cd'.repeat(65)}`,
        authorization: { from: '0x1', to: '0x2', value: '1', nonce: '0x3' },
      },
    } as unknown as PaymentPayload;
    const official = new HTTPFacilitatorClient({ url: capture, timeoutMs: 2000 });
    const ours = httpFacilitator(capture, 2000);
    client = 'official';
    await official.verify(signed, requirements);
    await official.settle(signed, requirements);
    client = 'ours';
    await ours.verify(signed, requirements);
    await ours.settle(signed, requirements);
    await ours.close?.();
    const strip = ({ client: _c, ...rest }: (typeof seen)[number]) => rest;
    assert.equal(seen.length, 4);
    assert.deepEqual(seen.slice(2).map(strip), seen.slice(0, 2).map(strip));
    assert.deepEqual(
      seen.map((s) => `${s.method} ${s.path} ${s.type}`),
      [
        'POST /verify application/json',
        'POST /settle application/json',
        'POST /verify application/json',
        'POST /settle application/json',
      ],
    );
  });

  it('reads an error status as the official client does: an outcome in the JSON counts, anything else does not', async () => {
    const refusedWith400 = await serveWith(
      json({ isValid: false, invalidReason: 'invalid_exact_evm_payload_signature' }, 400),
    );
    assert.deepEqual(await httpFacilitator(refusedWith400, 2000).verify(payload, requirements), {
      kind: 'invalid',
      reason: 'invalid_exact_evm_payload_signature',
      message: undefined,
    });
    const failedWith500 = await serveWith(
      json({ success: false, errorReason: 'unexpected_settle_error', transaction: '', network: 'eip155:8453' }, 500),
    );
    // A 5xx in the protocol's shape is no word that nothing was broadcast (the reference
    // facilitator's catch answers so after a broadcast): unknown, reconciled (issue 37, finding 2).
    assert.equal((await httpFacilitator(failedWith500, 2000).settle(payload, requirements)).kind, 'unknown');
    const failedWith400 = await serveWith(
      json({ success: false, errorReason: 'invalid_transaction_state', transaction: '', network: 'eip155:8453' }, 400),
    );
    assert.equal((await httpFacilitator(failedWith400, 2000).settle(payload, requirements)).kind, 'failed');
    // A reverted transfer names its transaction too: whether nothing moved is the chain's to
    // say (gspc reconcile), so it is pending, never failed (issue 37).
    const reverted = await serveWith(
      json({
        success: false,
        errorReason: 'transaction_failed',
        transaction: `0x${'ef'.repeat(32)}`,
        network: 'eip155:8453',
      }),
    );
    assert.equal((await httpFacilitator(reverted, 2000).settle(payload, requirements)).kind, 'pending');
    const page = await serveWith((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>bad gateway</html>');
    });
    assert.equal((await httpFacilitator(page, 2000).verify(payload, requirements)).kind, 'unavailable');
    assert.equal((await httpFacilitator(page, 2000).settle(payload, requirements)).kind, 'unknown');
    const moved = await serveWith((_req, res) => {
      res.writeHead(308, { location: 'http://127.0.0.1:9/verify' }).end();
    });
    const redirected = await httpFacilitator(moved, 2000).verify(payload, requirements);
    assert.equal(redirected.kind, 'unavailable');
    assert.match(
      (redirected as { error: string }).error,
      /308: a redirect to http:\/\/127\.0\.0\.1:9\/verify, not followed/,
    );
  });
});
