/**
 * A read-only JSON-RPC reader of the payment chain, for `gspc reconcile` only: it asks whether
 * an EIP-3009 authorization (FiatTokenV2 USDC) was used, in which transaction, and whether that
 * transaction moved the money to us. Hand-written over global fetch (docs/decisions.md P23):
 * five read calls, and viem is a devDependency that would otherwise become a runtime dependency
 * of the whole service. The endpoint is the operator's GSPC_RPC_URL, never a request's.
 */
import { GspcError } from '../core/errors.js';

/** keccak256("authorizationState(address,bytes32)")[0..4]; checked against viem in the tests. */
export const AUTHORIZATION_STATE_SELECTOR = '0xe94a0102';
/** keccak256("AuthorizationUsed(address,bytes32)"): topic 0 of the event FiatTokenV2 emits when a nonce is used. */
export const AUTHORIZATION_USED_TOPIC = '0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5';
/** keccak256("Transfer(address,address,uint256)"): the ERC-20 transfer event. */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export interface ChainBlock {
  number: bigint;
  /** Unix seconds: the time EIP-3009 compares validBefore with. */
  timestamp: bigint;
}

export interface ChainReader {
  /** eth_chainId: the EIP-155 id, so records of another network are never judged by this chain. */
  chainId(): Promise<number>;
  /** The latest block's number and time. */
  latestBlock(): Promise<ChainBlock>;
  /** FiatTokenV2 `authorizationState(authorizer, nonce)` at `block` (default latest): true once used or canceled. */
  authorizationState(asset: string, authorizer: string, nonce: string, block?: bigint): Promise<boolean>;
  /** The transaction hash of the `AuthorizationUsed(authorizer, nonce)` log from `fromBlock` on, or null. */
  authorizationUsedTx(asset: string, authorizer: string, nonce: string, fromBlock: bigint): Promise<string | null>;
  /**
   * Whether transaction `tx` succeeded and used THIS authorization: it carries the
   * `AuthorizationUsed(from, nonce)` log of `asset` and a `Transfer(from, to, v)` log of `asset`
   * with v ≥ `value` (issue 37 review, finding 5: a named transaction that paid another
   * authorization settles nothing).
   */
  transferInTransaction(
    tx: string,
    t: { asset: string; from: string; to: string; value: string; nonce: string },
  ): Promise<boolean>;
}

export interface ChainReaderOptions {
  /** Per call (default 10 s). */
  timeoutMs?: number;
  /** A bigger answer is refused unread (default 4 MiB; a receipt of a large batch stays under it). */
  maxResponseBytes?: number;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
const DECIMAL = /^(0|[1-9][0-9]{0,77})$/;

function argument(name: string, v: string, shape: RegExp): string {
  // Callers pass ledger values, already checked; a mismatch is a bug, not a chain problem.
  if (!shape.test(v)) throw new GspcError('internal', `chain reader: ${name} ${JSON.stringify(v)} is malformed`);
  return v.toLowerCase();
}

/** An address as a 32-byte ABI word or log topic. */
const word = (address: string) => `0x${'0'.repeat(24)}${address.slice(2)}`;
const quantity = (n: bigint) => `0x${n.toString(16)}`;

interface RpcLog {
  address?: unknown;
  topics?: unknown;
  data?: unknown;
  transactionHash?: unknown;
  removed?: unknown;
}

export function createChainReader(rpcUrl: string, o: ChainReaderOptions = {}): ChainReader {
  const timeoutMs = o.timeoutMs ?? 10_000;
  const maxBytes = o.maxResponseBytes ?? 4 * 1024 * 1024;
  // Provider URLs often carry an API key in the path or query: messages name the origin only.
  const where = new URL(rpcUrl).origin;
  let id = 0;

  const fail = (method: string, why: string): never => {
    throw new GspcError('chain_unavailable', `chain RPC ${where} ${method}: ${why}`, { rpc: where, method });
  };

  async function call(method: string, params: unknown[]): Promise<unknown> {
    const requestId = ++id;
    let res: Response;
    try {
      res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params }),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      return fail(
        method,
        err.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : `unreachable: ${err.cause?.code ?? err.cause?.message ?? err.message}`,
      );
    }
    const text = await readCapped(res, maxBytes).catch((e: Error) => fail(method, e.message));
    if (res.status !== 200) return fail(method, `HTTP ${res.status}: ${text.slice(0, 200)}`);
    let body: { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return fail(method, 'the answer is not JSON');
    }
    if (typeof body !== 'object' || body === null || body.id !== requestId)
      return fail(method, 'the answer is not a JSON-RPC response to this request');
    if (body.error !== undefined)
      return fail(method, `error ${String(body.error?.code)}: ${String(body.error?.message).slice(0, 300)}`);
    if (!('result' in body)) return fail(method, 'the answer has no result');
    return body.result;
  }

  const hexQuantity = (method: string, v: unknown): bigint =>
    typeof v === 'string' && QUANTITY.test(v) ? BigInt(v) : fail(method, `malformed quantity ${JSON.stringify(v)}`);

  return {
    async chainId() {
      const n = hexQuantity('eth_chainId', await call('eth_chainId', []));
      return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : fail('eth_chainId', 'chain id out of range');
    },

    async latestBlock() {
      const block = (await call('eth_getBlockByNumber', ['latest', false])) as {
        number?: unknown;
        timestamp?: unknown;
      } | null;
      if (typeof block !== 'object' || block === null) return fail('eth_getBlockByNumber', 'no latest block');
      return {
        number: hexQuantity('eth_getBlockByNumber', block.number),
        timestamp: hexQuantity('eth_getBlockByNumber', block.timestamp),
      };
    },

    async authorizationState(asset, authorizer, nonce, block) {
      const to = argument('asset', asset, ADDRESS);
      const data = `${AUTHORIZATION_STATE_SELECTOR}${word(argument('authorizer', authorizer, ADDRESS)).slice(2)}${argument('nonce', nonce, BYTES32).slice(2)}`;
      const result = await call('eth_call', [{ to, data }, block === undefined ? 'latest' : quantity(block)]);
      // '0x' means no code answered: not an EIP-3009 token at this address on this chain.
      if (result === '0x')
        return fail('eth_call', `${to} returned nothing for authorizationState (not an EIP-3009 token on this chain?)`);
      if (typeof result !== 'string' || !BYTES32.test(result) || BigInt(result) > 1n)
        return fail('eth_call', `authorizationState answered ${JSON.stringify(result).slice(0, 80)}, not a bool`);
      return BigInt(result) === 1n;
    },

    async authorizationUsedTx(asset, authorizer, nonce, fromBlock) {
      const address = argument('asset', asset, ADDRESS);
      const topics = [
        AUTHORIZATION_USED_TOPIC,
        word(argument('authorizer', authorizer, ADDRESS)),
        argument('nonce', nonce, BYTES32),
      ];
      const logs = await call('eth_getLogs', [{ address, topics, fromBlock: quantity(fromBlock), toBlock: 'latest' }]);
      if (!Array.isArray(logs)) return fail('eth_getLogs', 'the answer is not a list of logs');
      // Re-check what was asked for: a provider that ignores a filter must not settle a payment.
      const used = (logs as RpcLog[]).find(
        (l) =>
          l.removed !== true &&
          String(l.address).toLowerCase() === address &&
          topics.every((t, i) => topicsOf(l)[i] === t),
      );
      if (used === undefined) return null;
      return typeof used.transactionHash === 'string' && BYTES32.test(used.transactionHash)
        ? used.transactionHash.toLowerCase()
        : fail('eth_getLogs', 'a log without a transaction hash');
    },

    async transferInTransaction(tx, t) {
      const hash = argument('tx', tx, BYTES32);
      const [asset, from, to] = [
        argument('asset', t.asset, ADDRESS),
        argument('from', t.from, ADDRESS),
        argument('to', t.to, ADDRESS),
      ];
      const value = BigInt(argument('value', t.value, DECIMAL));
      const nonce = argument('nonce', t.nonce, BYTES32);
      const receipt = (await call('eth_getTransactionReceipt', [hash])) as { status?: unknown; logs?: unknown } | null;
      // The log was just found, so a missing receipt means the node changed its mind (a reorganisation): ask again later.
      if (typeof receipt !== 'object' || receipt === null)
        return fail('eth_getTransactionReceipt', `no receipt for ${hash}`);
      if (receipt.status !== '0x1' || !Array.isArray(receipt.logs)) return false;
      const logs = (receipt.logs as RpcLog[]).filter(
        (l) => l.removed !== true && String(l.address).toLowerCase() === asset,
      );
      const used = [AUTHORIZATION_USED_TOPIC, word(from), nonce];
      if (!logs.some((l) => used.every((w, i) => topicsOf(l)[i] === w))) return false;
      const wanted = [TRANSFER_TOPIC, word(from), word(to)];
      return logs.some(
        (l) =>
          wanted.every((w, i) => topicsOf(l)[i] === w) &&
          typeof l.data === 'string' &&
          BYTES32.test(l.data) &&
          BigInt(l.data) >= value,
      );
    },
  };
}

/** A log's topics, lower-cased ([] when malformed). */
function topicsOf(l: RpcLog): string[] {
  return Array.isArray(l.topics) ? l.topics.map((t) => String(t).toLowerCase()) : [];
}

/** The body as text, refusing (unread) anything over `max` bytes. */
async function readCapped(res: Response, max: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await res.body?.cancel();
    throw new Error(`the answer is ${declared} bytes, over the ${max}-byte limit`);
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new Error(`the answer is over the ${max}-byte limit`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
