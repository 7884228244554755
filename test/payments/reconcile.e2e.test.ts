/**
 * gspc reconcile against the real thing: anvil with Circle's FiatTokenV2_2 at the Base USDC
 * address, EIP-3009 authorizations signed by the payer's dev key and submitted on chain by the
 * facilitator's, and a SQLite ledger holding the UNKNOWN records the request flow would have left.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  createPublicClient,
  createWalletClient,
  http,
  parseAbi,
  toEventSelector,
  toFunctionSelector,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { localBaseChain, startLocalRail, type LocalRail } from '../../demo/local-rail/index.js';
import {
  AUTHORIZATION_STATE_SELECTOR,
  AUTHORIZATION_USED_TOPIC,
  createChainReader,
  TRANSFER_TOPIC,
} from '../../src/payments/chain-reader.js';
import { reconcile } from '../../src/payments/reconcile.js';
import { REPLAY_NOTE } from '../../src/payments/reconcile-report.js';
import type { Ledger, NewReservation } from '../../src/store/ledger.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { tempDir } from '../helpers/tmp.js';
import { noAnvil } from '../helpers/chain.js';

const PRICE = 10_000n; // $0.01
const HOUR = 3600n;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;
const transferAbi = parseAbi([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
]);

describe('chain reader constants', () => {
  it('the selector and topics are the keccak of their signatures (computed by viem)', () => {
    assert.equal(AUTHORIZATION_STATE_SELECTOR, toFunctionSelector('authorizationState(address,bytes32)'));
    assert.equal(AUTHORIZATION_USED_TOPIC, toEventSelector('AuthorizationUsed(address,bytes32)'));
    assert.equal(TRANSFER_TOPIC, toEventSelector('Transfer(address,address,uint256)'));
  });
});

describe('reconcile on the local rail (anvil + Circle USDC, real EIP-3009 authorizations)', { skip: noAnvil() }, () => {
  let rail: LocalRail;
  const dir = tempDir('gspc-reconcile-');
  let ledgers = 0;
  const open: Ledger[] = [];
  const freshLedger = async () => {
    const l = await openLedger({ sqlitePath: join(dir, `ledger-${++ledgers}.sqlite`) });
    open.push(l);
    return l;
  };

  before(async () => {
    rail = await startLocalRail({ facilitator: false });
  });
  after(async () => {
    for (const l of open) await l.close();
    await rail?.stop();
  });

  /** The payer signs "PRICE to payTo" exactly as x402's exact EVM client does. */
  async function authorize(validBefore: bigint) {
    const nonce = `0x${randomBytes(32).toString('hex')}` as Hex;
    const message = {
      from: rail.payer.address,
      to: rail.payTo.address,
      value: PRICE,
      validAfter: 0n,
      validBefore,
      nonce,
    };
    const signature = await privateKeyToAccount(rail.payer.privateKey).signTypedData({
      domain: { name: 'USD Coin', version: '2', chainId: rail.chainId, verifyingContract: rail.usdc },
      types: TRANSFER_WITH_AUTHORIZATION,
      primaryType: 'TransferWithAuthorization',
      message,
    });
    return { ...message, signature };
  }

  /** What the facilitator's settle does: submit the authorization (bytes-signature overload) and wait for it. */
  async function submit(a: Awaited<ReturnType<typeof authorize>>): Promise<{ hash: Hex; block: bigint }> {
    const chain = localBaseChain(rail.rpcUrl);
    const wallet = createWalletClient({
      account: privateKeyToAccount(rail.facilitatorAccount.privateKey),
      chain,
      transport: http(),
    });
    const hash = await wallet.writeContract({
      address: rail.usdc,
      abi: transferAbi,
      functionName: 'transferWithAuthorization',
      args: [a.from, a.to, a.value, a.validAfter, a.validBefore, a.nonce, a.signature],
    });
    const receipt = await createPublicClient({
      chain,
      transport: http(),
      pollingInterval: 50,
    }).waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, 'success');
    return { hash, block: receipt.blockNumber };
  }

  /** The reservation the request flow makes for an authorization (reserved a minute ago). */
  const reservationOf = (a: Awaited<ReturnType<typeof authorize>>, over: Partial<NewReservation> = {}) => ({
    payer: a.from,
    nonce: a.nonce,
    product_id: 'gspc.request_attestation',
    sku_id: 'request_attestation',
    resource: '/api/request-attestation?subject=m1',
    amount_atomic: a.value.toString(),
    asset: rail.usdc,
    network: rail.network,
    pay_to: a.to,
    payment_sha256: sha256(a.signature),
    self_funded: false,
    valid_before: a.validBefore.toString(),
    at: new Date(Date.now() - 60_000).toISOString(),
    ...over,
  });

  /** The record the request flow leaves when the facilitator times out mid-settle. */
  async function unknownRecord(
    ledger: Ledger,
    a: Awaited<ReturnType<typeof authorize>>,
    over: Partial<NewReservation> = {},
  ) {
    const key = { payer: a.from, nonce: a.nonce };
    await ledger.reserve(reservationOf(a, over));
    await ledger.markUnknown(key, { error: 'facilitator timed out after 15000 ms', at: new Date().toISOString() });
    return key;
  }

  const run = (ledger: Ledger, over: { fromBlock?: bigint; rpcUrl?: string } = {}) =>
    reconcile({
      ledger,
      chain: createChainReader(over.rpcUrl ?? rail.rpcUrl, { timeoutMs: 3000 }),
      now: new Date(),
      staleAfterMs: 15 * 60_000,
      ...(over.fromBlock !== undefined && { fromBlock: over.fromBlock }),
    });

  it('an authorization used on chain → SETTLED with exactly that transaction hash, no artefact yet; the replay attaches it later', async () => {
    const ledger = await freshLedger();
    const a = await authorize(nowSeconds() + HOUR);
    const before = await rail.balanceOf(rail.payTo.address);
    const { hash } = await submit(a);
    assert.equal(await rail.balanceOf(rail.payTo.address), before + PRICE);
    const key = await unknownRecord(ledger, a);
    const report = await run(ledger);
    assert.deepEqual(report.chain, { ...report.chain, chain_id: 8453, network: 'eip155:8453' });
    assert.equal(report.entries.length, 1);
    const [e] = report.entries;
    assert.deepEqual(
      [e!.action, e!.from, e!.to, e!.transaction, e!.nonce],
      ['settled', 'UNKNOWN', 'SETTLED', hash, a.nonce.toLowerCase()],
    );
    assert.match(e!.detail, /replays the same payment/);
    assert.equal(report.note, REPLAY_NOTE);
    assert.equal(report.counts.settled, 1);
    const record = (await ledger.get(key))!;
    assert.deepEqual([record.state, record.transaction, record.artefact, record.error], ['SETTLED', hash, null, null]);
    assert.deepEqual(
      (await ledger.history(key)).map((h) => `${h.from}>${h.to}`),
      ['null>RESERVED', 'RESERVED>UNKNOWN', 'UNKNOWN>SETTLED'],
    );
    const bytes = Buffer.from('{"artefact":"produced at the replay"}');
    const attached = await ledger.attachArtefact(key, {
      artefact: bytes,
      artefact_sha256: createHash('sha256').update(bytes).digest('hex'),
      receipt: null,
      at: new Date().toISOString(),
    });
    assert.ok(attached.artefact!.equals(bytes));
    // A second run has nothing left to do.
    assert.deepEqual((await run(ledger)).entries, []);
  });

  it('an unused authorization whose validBefore has passed → FAILED "authorization expired unused"', async () => {
    const ledger = await freshLedger();
    const a = await authorize(nowSeconds() - HOUR);
    const key = await unknownRecord(ledger, a);
    const report = await run(ledger);
    assert.deepEqual(
      report.entries.map((e) => [e.action, e.from, e.to]),
      [['failed', 'UNKNOWN', 'FAILED']],
    );
    const record = (await ledger.get(key))!;
    assert.equal(record.state, 'FAILED');
    assert.match(
      record.error!,
      /^authorization expired unused: validBefore \d{4}-.*Z passed and authorizationState is unused at block \d+/,
    );
  });

  it('an unused authorization still valid → stays UNKNOWN, reported pending until validBefore', async () => {
    const ledger = await freshLedger();
    const validBefore = nowSeconds() + HOUR;
    const key = await unknownRecord(ledger, await authorize(validBefore));
    const report = await run(ledger);
    const until = new Date(Number(validBefore) * 1000).toISOString();
    assert.deepEqual(
      report.entries.map((e) => [e.action, e.to, e.pending_until]),
      [['pending', 'UNKNOWN', until]],
    );
    assert.match(report.entries[0]!.detail, new RegExp(`^pending until ${until}`));
    assert.equal((await ledger.get(key))!.state, 'UNKNOWN');
  });

  it('a stale RESERVED record → UNKNOWN (then judged: still valid, so pending); a fresh one is left to its process', async () => {
    const ledger = await freshLedger();
    const stale = await authorize(nowSeconds() + HOUR);
    const fresh = await authorize(nowSeconds() + HOUR);
    const reservation = (a: typeof stale, ageMs: number): NewReservation =>
      reservationOf(a, {
        product_id: 'gspc.issuance',
        sku_id: 'issuance',
        resource: '/api/eunomia-data?feed=1',
        at: new Date(Date.now() - ageMs).toISOString(),
      });
    await ledger.reserve(reservation(stale, 2 * 3600_000));
    await ledger.reserve(reservation(fresh, 60_000));
    const report = await run(ledger);
    assert.deepEqual(
      report.entries.map((e) => [e.action, e.from, e.to, e.nonce]),
      [
        ['abandoned', 'RESERVED', 'UNKNOWN', stale.nonce.toLowerCase()],
        ['pending', 'UNKNOWN', 'UNKNOWN', stale.nonce.toLowerCase()],
      ],
    );
    assert.match(report.entries[0]!.detail, /^reservation abandoned: RESERVED since .* \(over 900 s\)/);
    assert.equal((await ledger.get({ payer: stale.from, nonce: stale.nonce }))!.error, report.entries[0]!.detail);
    assert.equal((await ledger.get({ payer: fresh.from, nonce: fresh.nonce }))!.state, 'RESERVED');
  });

  it('a settlement record lost to a power loss (decision O15): its durable reservation, stale, is settled from the chain in one run', async () => {
    const ledger = await freshLedger();
    const a = await authorize(nowSeconds() + HOUR);
    const key = { payer: a.from, nonce: a.nonce };
    // What the disk keeps: the reservation, committed before the facilitator settled; then the
    // transfer on chain, whose unflushed SETTLED record the power loss took.
    await ledger.reserve(reservationOf(a, { at: new Date(Date.now() - 2 * 3600_000).toISOString() }));
    const { hash } = await submit(a);
    const report = await run(ledger);
    assert.deepEqual(
      report.entries.map((e) => [e.action, e.from, e.to, e.transaction]),
      [
        ['abandoned', 'RESERVED', 'UNKNOWN', null],
        ['settled', 'UNKNOWN', 'SETTLED', hash],
      ],
    );
    const record = (await ledger.get(key))!;
    assert.deepEqual([record.state, record.transaction, record.artefact], ['SETTLED', hash, null]);
  });

  it('what the chain cannot decide stays UNKNOWN with the reason: no validBefore, log before --from-block, another network', async () => {
    const ledger = await freshLedger();
    const noExpiry = await unknownRecord(ledger, await authorize(nowSeconds() - HOUR), { valid_before: null });
    const used = await authorize(nowSeconds() + HOUR);
    const { block } = await submit(used);
    const usedKey = await unknownRecord(ledger, used);
    const elsewhere = await unknownRecord(ledger, await authorize(nowSeconds() - HOUR), { network: 'eip155:84532' });
    const report = await run(ledger, { fromBlock: block + 1n });
    assert.deepEqual(
      report.entries.map((e) => e.action),
      ['undecided', 'undecided', 'undecided'],
      JSON.stringify(report.entries),
    );
    assert.match(report.entries[0]!.detail, /validBefore was not recorded/);
    assert.match(
      report.entries[1]!.detail,
      new RegExp(`^authorization used, transaction not found: no AuthorizationUsed log from block ${block + 1n}`),
    );
    assert.match(report.entries[2]!.detail, /network eip155:84532 is not the RPC's chain eip155:8453/);
    for (const k of [noExpiry, usedKey, elsewhere]) assert.equal((await ledger.get(k))!.state, 'UNKNOWN');
    // From the right block the same record settles.
    const again = await run(ledger, { fromBlock: block });
    assert.deepEqual(
      again.entries.map((e) => e.action),
      ['undecided', 'settled', 'undecided'],
    );
  });

  it('a FAILED record whose authorization was used on chain after all → SETTLED with that transaction, and the report says what the chain showed', async () => {
    const ledger = await freshLedger();
    const a = await authorize(nowSeconds() + 300n);
    const key = { payer: a.from, nonce: a.nonce };
    await ledger.reserve(reservationOf(a));
    await ledger.markFailed(key, {
      error: 'unexpected_settle_error: no transfer, the facilitator said',
      at: new Date().toISOString(),
    });
    const other = await authorize(nowSeconds() + 300n);
    const untouched = { payer: other.from, nonce: other.nonce };
    await ledger.reserve(reservationOf(other));
    await ledger.markFailed(untouched, { error: 'the facilitator refused the payment', at: new Date().toISOString() });
    const { hash, block } = await submit(a); // anyone holding the signed authorization may submit it
    const report = await run(ledger);
    assert.deepEqual(
      report.entries.map((e) => [e.action, e.from, e.to, e.transaction, e.nonce]),
      [['settled', 'FAILED', 'SETTLED', hash, a.nonce.toLowerCase()]],
      'the unused FAILED record is neither moved nor reported',
    );
    const { chain } = report.entries[0]!;
    assert.deepEqual(
      [chain?.authorization, chain?.transaction, chain?.transfer, chain?.valid_before],
      ['used', hash, true, new Date(Number(a.validBefore) * 1000).toISOString()],
    );
    assert.ok(BigInt(chain!.block) >= block);
    const record = (await ledger.get(key))!;
    assert.deepEqual([record.state, record.transaction, record.artefact], ['SETTLED', hash, null]);
    assert.deepEqual(
      (await ledger.history(key)).map((h) => `${h.from}>${h.to}`),
      ['null>RESERVED', 'RESERVED>FAILED', 'FAILED>UNKNOWN', 'UNKNOWN>SETTLED'],
    );
    assert.equal((await ledger.get(untouched))!.state, 'FAILED');
  });

  it('an UNKNOWN record naming the transaction the facilitator broadcast is settled from that transaction, wherever --from-block starts', async () => {
    const ledger = await freshLedger();
    const a = await authorize(nowSeconds() + 300n);
    const key = { payer: a.from, nonce: a.nonce };
    const { hash, block } = await submit(a);
    await ledger.reserve(reservationOf(a));
    await ledger.markUnknown(key, {
      error: 'settlement_pending: the facilitator broadcast the transfer but saw no receipt',
      transaction: hash,
      at: new Date().toISOString(),
    });
    assert.equal((await ledger.get(key))!.transaction, hash);
    const report = await run(ledger, { fromBlock: block + 1n });
    assert.deepEqual(
      report.entries.map((e) => [e.action, e.to, e.transaction]),
      [['settled', 'SETTLED', hash]],
    );
    assert.equal(report.entries[0]!.chain?.transaction, hash);
  });

  it('an unreachable chain is reported per record, and nothing is moved', async () => {
    const ledger = await freshLedger();
    const key = await unknownRecord(ledger, await authorize(nowSeconds() - HOUR));
    const report = await run(ledger, { rpcUrl: 'http://127.0.0.1:1/secret-api-key' });
    assert.match(
      (report.chain as { error: string }).error,
      /^chain RPC http:\/\/127\.0\.0\.1:1 eth_chainId: unreachable/,
    );
    assert.doesNotMatch(JSON.stringify(report), /secret-api-key/);
    assert.deepEqual(
      report.entries.map((e) => [e.action, e.to]),
      [['error', 'UNKNOWN']],
    );
    assert.equal(report.counts.error, 1);
    assert.equal((await ledger.get(key))!.state, 'UNKNOWN');
  });
});
