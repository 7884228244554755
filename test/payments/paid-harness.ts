/**
 * The real service on a real port, paid on the local rail: a demo release signed under
 * `did:web:localhost%3A<port>` (so @x402/extensions can resolve the receipt key over HTTP), a SQLite
 * ledger, the rail's facilitator. And a payer that builds payments by hand (EIP-3009 signed with
 * viem) for the cases the official client will not produce: a wrong amount, an expired authorization.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  PAYMENT_IDENTIFIER,
} from '@x402/extensions/payment-identifier';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { buildApp } from '../../src/app.js';
import { ServedState } from '../../src/serve/served-state.js';
import { keygen } from '../../src/keys/key-store.js';
import { signingContext } from '../../src/keys/signing.js';
import { readRailConfig } from '../../src/config.js';
import type { RailConfig } from '../../src/payments/rail-config.js';
import type { RateBudgets } from '../../src/web/rate-limits.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import type { Ledger } from '../../src/store/ledger.js';
import { openLedger } from '../../src/store/open-ledger.js';
import type { LocalRail, RailAccount } from '../../demo/local-rail/index.js';
import { liveSigning } from '../helpers/app.js';
import { freePort } from '../helpers/process.js';
import { demoCorpus } from '../helpers/tmp.js';

export interface PaidService {
  baseUrl: string;
  app: FastifyInstance;
  ledger: Ledger;
  state: ServedState;
  rail: RailConfig;
  close(): Promise<void>;
}

export async function startPaidService(
  rail: LocalRail | undefined,
  opts: {
    timeoutMs?: number;
    now?: () => Date;
    railEnv?: Record<string, string>;
    ledger?: Ledger;
    rateLimits?: RateBudgets;
  } = {},
): Promise<PaidService> {
  const port = await freePort();
  // Removed by close(): tempDir()'s after() inside a before() hook would run when the hook ends.
  const dir = mkdtempSync(join(tmpdir(), 'gspc-paid-'));
  const keyDir = join(dir, 'keys');
  keygen(keyDir);
  const signing = signingContext(keyDir, `localhost:${port}`);
  const { dir: releaseDir } = publishRelease(demoCorpus, join(dir, 'data'), signing.inputs);
  const state = new ServedState(loadRelease(releaseDir), liveSigning(signing));
  const ledger = opts.ledger ?? (await openLedger({ sqlitePath: join(dir, 'ledger.sqlite') }));
  const railConfig = readRailConfig(
    opts.railEnv ??
      (rail
        ? { GSPC_PAY_TO: rail.payTo.address, GSPC_FACILITATOR_URL: rail.facilitatorUrl!, GSPC_ASSET: rail.usdc }
        : {}),
  );
  const baseUrl = `http://localhost:${port}`;
  const app = buildApp({
    state,
    logLevel: 'silent',
    baseUrl,
    now: opts.now ?? (() => new Date()),
    ledger,
    products: { rail: railConfig, facilitatorTimeoutMs: opts.timeoutMs ?? 5_000 },
    ...(opts.rateLimits && { rateLimits: opts.rateLimits }),
  });
  await app.listen({ port, host: '127.0.0.1' });
  // Closed by the caller: node:test's after() inside a before() hook would run when the hook ends.
  return {
    baseUrl,
    app,
    ledger,
    state,
    rail: railConfig,
    close: async () => {
      await app.close();
      await ledger.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The 402 challenge of `url`, read from PAYMENT-REQUIRED as the official client reads it. */
export async function challengeOf(url: string): Promise<PaymentRequired> {
  const r = await fetch(url);
  if (r.status !== 402) throw new Error(`expected 402 from ${url}, got ${r.status}: ${await r.text()}`);
  return decodePaymentRequiredHeader(r.headers.get('payment-required')!);
}

/** The lowercase EIP-3009 nonce of a payment payload (the ledger's key with the payer). */
export function authorizationNonce(payload: Record<string, unknown>): string {
  return (payload.payload as { authorization: { nonce: string } }).authorization.nonce.toLowerCase();
}

/**
 * The official client's side of the x402 payment-identifier extension: the id it adds to the
 * extension the server declared (decision P42: only that id gets a lost response again).
 */
export function paymentIdentifierExtension(id: string = generatePaymentId()) {
  return {
    key: PAYMENT_IDENTIFIER,
    enrichPaymentPayload: async (payload: PaymentPayload) => ({
      ...payload,
      extensions: appendPaymentIdentifierToExtensions(structuredClone(payload.extensions ?? {}), id),
    }),
  };
}

/**
 * A payment built by the official client (@x402/core + @x402/evm), as the base64 header value,
 * carrying a payment-identifier id unless `paymentId` is false.
 */
export async function officialPayment(
  rail: LocalRail,
  challenge: PaymentRequired,
  payer: RailAccount = rail.payer,
  paymentId: string | false = generatePaymentId(),
): Promise<{ header: string; payload: Record<string, unknown> }> {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(payer.privateKey), networks: [rail.network] });
  if (paymentId !== false) client.registerExtension(paymentIdentifierExtension(paymentId));
  const payload = await client.createPaymentPayload(challenge);
  const headers = new x402HTTPClient(client).encodePaymentSignatureHeader(payload);
  return { header: headers['PAYMENT-SIGNATURE']!, payload: payload as unknown as Record<string, unknown> };
}

/** An EIP-3009 authorization signed by hand: any value, any validity window. */
export async function handPayment(
  rail: LocalRail,
  challenge: PaymentRequired,
  o: { payer?: RailAccount; value?: string; validBefore?: bigint; version?: 1 | 2; paymentId?: string | false } = {},
): Promise<{ header: string; payload: Record<string, unknown> }> {
  const accepted = structuredClone(challenge.accepts[0]!);
  const account = privateKeyToAccount((o.payer ?? rail.payer).privateKey);
  const authorization = {
    from: account.address,
    to: accepted.payTo as `0x${string}`,
    value: o.value ?? accepted.amount,
    validAfter: '0',
    validBefore: String(o.validBefore ?? BigInt(Math.floor(Date.now() / 1000) + 300)),
    nonce: `0x${randomBytes(32).toString('hex')}` as `0x${string}`,
  };
  const signature = await account.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: rail.chainId, verifyingContract: rail.usdc },
    types: {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: 0n,
      validBefore: BigInt(authorization.validBefore),
    },
  });
  const payload =
    o.version === 1
      ? { x402Version: 1, scheme: 'exact', network: 'base', payload: { signature, authorization } }
      : {
          x402Version: 2,
          resource: challenge.resource,
          accepted,
          payload: { signature, authorization },
          ...(o.paymentId !== false && {
            extensions: {
              [PAYMENT_IDENTIFIER]: { info: { required: false, id: o.paymentId ?? generatePaymentId() } },
            },
          }),
        };
  return { header: Buffer.from(JSON.stringify(payload)).toString('base64'), payload };
}

export function decodeHeader<T = Record<string, unknown>>(value: string | null): T {
  if (value === null) throw new Error('header missing');
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as T;
}
