/**
 * The local payment rail (demo/local-rail) against the official x402 code, with no mocks: anvil with
 * Circle's FiatTokenV2_2 at the Base USDC address, the reference facilitator over HTTP, a tiny
 * node:http resource server built from @x402/core/server, and the @x402/fetch client. Checks the token,
 * /supported, a full payment with exact balance moves, replay refusal and the facilitator's failure modes.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import {
  FacilitatorTimeoutError,
  HTTPFacilitatorClient,
  x402HTTPResourceServer,
  x402ResourceServer,
  type HTTPAdapter,
  type HTTPRequestContext,
} from '@x402/core/server';
import { registerExactEvmScheme } from '@x402/evm/exact/server';
import { createPublicClient, createWalletClient, http, type PublicClient } from 'viem';
import { localBaseChain, payingFetch, startLocalRail, usdcAbi, type LocalRail } from '../../demo/local-rail/index.js';
import { noAnvil } from '../helpers/chain.js';

const PRICE = 10_000n; // atomic USDC: $0.01
const BUNDLE_PRICE = 2_000_000n; // $2, above the client's default $1 cap
const ARTEFACT = JSON.stringify({ artefact: 'paid content' });

/** A minimal node:http adapter for the reference x402HTTPResourceServer, as @x402/express does for Express. */
function adapterFor(req: IncomingMessage, url: URL): HTTPAdapter {
  const header = (name: string) => {
    const v = req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  return {
    getHeader: header,
    getMethod: () => req.method ?? 'GET',
    getPath: () => url.pathname,
    getUrl: () => url.href,
    getAcceptHeader: () => header('accept') ?? '',
    getUserAgent: () => header('user-agent') ?? '',
    getQueryParams: () => Object.fromEntries(url.searchParams),
    getQueryParam: (name) => url.searchParams.get(name) ?? undefined,
  };
}

function reply(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  res.writeHead(status, headers).end(typeof body === 'string' ? body : JSON.stringify(body ?? {}));
}

/** The reference resource server: GET /artefact at 10000 atomic USDC and GET /bundle at 2 USDC, both to payTo. */
async function startResourceServer(rail: LocalRail) {
  const resourceServer = new x402ResourceServer(
    new HTTPFacilitatorClient({ url: rail.facilitatorUrl!, timeoutMs: 5_000 }),
  );
  registerExactEvmScheme(resourceServer, { networks: [rail.network] });
  const route = (amount: bigint, description: string) => ({
    accepts: {
      scheme: 'exact',
      network: rail.network,
      payTo: rail.payTo.address,
      maxTimeoutSeconds: 60,
      price: { amount: amount.toString(), asset: rail.usdc, extra: { name: 'USD Coin', version: '2' } },
    },
    description,
    mimeType: 'application/json',
  });
  const paid = new x402HTTPResourceServer(resourceServer, {
    'GET /artefact': route(PRICE, 'one artefact'),
    'GET /bundle': route(BUNDLE_PRICE, 'above the client default cap of $1'),
  });
  await paid.initialize(); // GET /supported on the rail's facilitator
  const seen = { handlerRuns: 0, paymentSignatures: [] as string[] };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      const signature = req.headers['payment-signature'];
      if (typeof signature === 'string') seen.paymentSignatures.push(signature);
      const context: HTTPRequestContext = {
        adapter: adapterFor(req, url),
        path: url.pathname,
        method: req.method ?? 'GET',
      };
      const result = await paid.processHTTPRequest(context);
      if (result.type === 'no-payment-required') return reply(res, 404, {}, { error: 'not found' });
      if (result.type === 'payment-error')
        return reply(res, result.response.status, result.response.headers, result.response.body);
      seen.handlerRuns++; // the "work" happens here, before settlement, as in the reference middleware
      const settled = await paid.processSettlement(
        result.paymentPayload,
        result.paymentRequirements,
        result.declaredExtensions,
        { request: context, responseBody: Buffer.from(ARTEFACT) },
      );
      if (settled.success) return reply(res, 200, { 'content-type': 'application/json', ...settled.headers }, ARTEFACT);
      return reply(
        res,
        settled.response.status,
        { ...settled.headers, ...settled.response.headers },
        settled.response.body,
      );
    })().catch((error: unknown) => reply(res, 500, {}, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `${origin}/artefact`;
  const bundleUrl = `${origin}/bundle`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url, bundleUrl, seen, close };
}

/** The server's failure reason, carried in the `error` field of the 402's PAYMENT-REQUIRED header. */
function paymentError(res: Response): string | undefined {
  const header = res.headers.get('payment-required');
  assert.ok(header, `status ${res.status} without PAYMENT-REQUIRED`);
  return decodePaymentRequiredHeader(header).error;
}

describe('local payment rail (anvil + Circle USDC + official x402 facilitator, server and client)', {
  skip: noAnvil(),
}, () => {
  let rail: LocalRail;
  let shop: Awaited<ReturnType<typeof startResourceServer>>;
  let chain: PublicClient;
  const balances = async () => ({
    payer: await rail.balanceOf(rail.payer.address),
    payTo: await rail.balanceOf(rail.payTo.address),
  });

  before(async () => {
    rail = await startLocalRail();
    chain = createPublicClient({ chain: localBaseChain(rail.rpcUrl), transport: http(), pollingInterval: 50 });
    shop = await startResourceServer(rail);
  });
  after(async () => {
    await shop?.close();
    await rail?.stop();
  });

  it('places USDC at the Base address with the EIP-712 domain x402 expects, and funds the payer', async () => {
    const at = { address: rail.usdc, abi: usdcAbi } as const;
    assert.equal(rail.usdc, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
    assert.equal(await chain.readContract({ ...at, functionName: 'name' }), 'USD Coin');
    assert.equal(await chain.readContract({ ...at, functionName: 'version' }), '2');
    assert.equal(await chain.readContract({ ...at, functionName: 'decimals' }), 6);
    assert.equal(await chain.readContract({ ...at, functionName: 'symbol' }), 'USDC');
    assert.equal(await chain.getChainId(), 8453);
    assert.deepEqual(await balances(), { payer: 5_000_000n, payTo: 0n });
    assert.equal(rail.multicall3, true, 'Multicall3 from viem was deployed');
  });

  it("uses anvil's public dev accounts 0-3 for owner, payer, payTo and facilitator", async () => {
    const devAccounts = await createWalletClient({ transport: http(rail.rpcUrl) }).getAddresses(); // eth_accounts
    assert.deepEqual(
      [rail.owner, rail.payer, rail.payTo, rail.facilitatorAccount].map((a) => a.address.toLowerCase()),
      devAccounts.slice(0, 4).map((a) => a.toLowerCase()),
    );
  });

  it('GET /supported lists exact on eip155:8453 signed by the facilitator account, also through HTTPFacilitatorClient', async () => {
    const raw = (await (await fetch(`${rail.facilitatorUrl}/supported`)).json()) as {
      kinds: unknown[];
      signers: Record<string, string[]>;
    };
    assert.deepEqual(raw.kinds, [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }]);
    assert.deepEqual(raw.signers['eip155:*'], [rail.facilitatorAccount.address]);
    const viaClient = await new HTTPFacilitatorClient({ url: rail.facilitatorUrl! }).getSupported();
    assert.deepEqual(
      viaClient.kinds.map((k) => `${k.scheme}@${k.network}`),
      ['exact@eip155:8453'],
    );
  });

  it('an unpaid GET gets the 402 challenge: 10000 atomic USDC to payTo, domain "USD Coin" v2', async () => {
    const res = await fetch(shop.url);
    assert.equal(res.status, 402);
    const challenge = decodePaymentRequiredHeader(res.headers.get('payment-required')!);
    assert.equal(challenge.x402Version, 2);
    assert.deepEqual(
      challenge.accepts.map((a) => [
        a.scheme,
        a.network,
        a.amount,
        a.asset,
        a.payTo,
        a.extra['name'],
        a.extra['version'],
      ]),
      [['exact', 'eip155:8453', '10000', rail.usdc, rail.payTo.address, 'USD Coin', '2']],
    );
  });

  it('payingFetch pays: 200, PAYMENT-RESPONSE with a mined transaction, balances move by exactly 10000; a replay is refused', async () => {
    const start = await balances();
    const runs = shop.seen.handlerRuns;
    const res = await payingFetch(rail)(shop.url);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), ARTEFACT);
    const settlement = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    assert.equal(settlement.success, true);
    assert.equal(settlement.network, 'eip155:8453');
    assert.equal(settlement.payer, rail.payer.address);
    assert.match(settlement.transaction, /^0x[0-9a-f]{64}$/);
    const receipt = await chain.getTransactionReceipt({ hash: settlement.transaction as `0x${string}` });
    assert.equal(receipt.status, 'success');
    assert.equal(receipt.from.toLowerCase(), rail.facilitatorAccount.address.toLowerCase());
    assert.deepEqual(await balances(), { payer: start.payer - PRICE, payTo: start.payTo + PRICE });
    assert.equal(shop.seen.handlerRuns, runs + 1);

    const replayed = await fetch(shop.url, { headers: { 'PAYMENT-SIGNATURE': shop.seen.paymentSignatures.at(-1)! } });
    assert.equal(replayed.status, 402);
    assert.equal(paymentError(replayed), 'invalid_exact_evm_nonce_already_used'); // precise because Multicall3 is there
    assert.deepEqual(await balances(), { payer: start.payer - PRICE, payTo: start.payTo + PRICE });
    assert.equal(shop.seen.handlerRuns, runs + 1, 'the handler did not run for the replay');
  });

  it("facilitatorMode('down') makes the reference server's verify fail (402 naming the 503, nothing paid); 'normal' restores it", async () => {
    const start = await balances();
    const runs = shop.seen.handlerRuns;
    try {
      rail.facilitatorMode('down');
      const refused = await payingFetch(rail)(shop.url);
      assert.equal(refused.status, 402);
      assert.match(paymentError(refused) ?? '', /^Facilitator verify failed \(503\)/);
      rail.facilitatorMode('down', { down: 'reset' });
      const reset = await payingFetch(rail)(shop.url);
      assert.equal(reset.status, 402);
      assert.equal(paymentError(reset), 'fetch failed');
      assert.deepEqual(await balances(), start);
      assert.equal(shop.seen.handlerRuns, runs);
    } finally {
      rail.facilitatorMode('normal');
    }
    const res = await payingFetch(rail)(shop.url);
    assert.equal(res.status, 200);
    assert.deepEqual(await balances(), { payer: start.payer - PRICE, payTo: start.payTo + PRICE });
  });

  it("facilitatorMode('settle-fails'): verify passes and the handler runs, settle answers success:false, no money moves", async () => {
    const start = await balances();
    const runs = shop.seen.handlerRuns;
    try {
      rail.facilitatorMode('settle-fails', { reason: 'invalid_exact_evm_transaction_failed' });
      const res = await payingFetch(rail)(shop.url);
      assert.equal(res.status, 402);
      assert.notEqual(await res.text(), ARTEFACT);
      const settlement = decodePaymentResponseHeader(res.headers.get('payment-response')!);
      assert.equal(settlement.success, false);
      assert.equal(settlement.errorReason, 'invalid_exact_evm_transaction_failed');
      assert.equal(shop.seen.handlerRuns, runs + 1);
      assert.deepEqual(await balances(), start);
    } finally {
      rail.facilitatorMode('normal');
    }
  });

  it("facilitatorMode('slow') delays every answer: a 100 ms client timeout gives FacilitatorTimeoutError, a patient one succeeds", async () => {
    try {
      rail.facilitatorMode('slow', { delayMs: 300 });
      await assert.rejects(
        new HTTPFacilitatorClient({ url: rail.facilitatorUrl!, timeoutMs: 100 }).getSupported(),
        FacilitatorTimeoutError,
      );
      const t0 = performance.now();
      const supported = await new HTTPFacilitatorClient({ url: rail.facilitatorUrl!, timeoutMs: 2_000 }).getSupported();
      assert.ok(performance.now() - t0 >= 290, 'the answer was delayed');
      assert.equal(supported.kinds.length, 1);
    } finally {
      rail.facilitatorMode('normal');
    }
  });

  it('payingFetch keeps the client default cap of $1 per payment; maxAmountPerPayment raises it', async () => {
    const start = await balances();
    await assert.rejects(payingFetch(rail)(shop.bundleUrl), /rejected by spendControls\.maxAmountPerPayment \(\$1,/);
    assert.deepEqual(await balances(), start);
    assert.equal((await payingFetch(rail, { maxAmountPerPayment: '$5' })(shop.bundleUrl)).status, 200);
    assert.deepEqual(await balances(), { payer: start.payer - BUNDLE_PRICE, payTo: start.payTo + BUNDLE_PRICE });
  });

  it('mint adds USDC as the token owner', async () => {
    const before = await rail.balanceOf(rail.payTo.address);
    await rail.mint(rail.payTo.address, 1_000_000n);
    assert.equal(await rail.balanceOf(rail.payTo.address), before + 1_000_000n);
  });
});
