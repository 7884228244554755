/**
 * A fetch that pays x402 challenges with the official client: `wrapFetchWithPayment` from @x402/fetch
 * and the `exact` EVM scheme, signing with the rail's payer key (a public anvil dev key).
 *
 * The client's default spend controls stay on: only default assets (USDC at the canonical address on
 * 8453, which is where the rail puts it) and at most $1 per payment. `maxAmountPerPayment` raises
 * or lowers that cap (a Money value such as "$5", or false for no cap).
 */
import type { Money } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import type { RailAccount } from './accounts.js';
import type { LocalRail } from './rail.js';

export interface PayingFetchOptions {
  /** Per-payment cap of the client's spend controls; default "$1" (the library default). */
  maxAmountPerPayment?: Money | false;
  /** Who pays; default `rail.payer`. Another dev account (e.g. an unfunded one) tests the failure paths. */
  payer?: RailAccount;
  /** The fetch to wrap; default the global fetch. */
  fetch?: typeof fetch;
}

/** What `wrapFetchWithPayment` returns: fetch's call shape. */
export type PayingFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function payingFetch(rail: Pick<LocalRail, 'payer' | 'network'>, options: PayingFetchOptions = {}): PayingFetch {
  const client = new x402Client();
  registerExactEvmScheme(client, {
    signer: privateKeyToAccount((options.payer ?? rail.payer).privateKey),
    networks: [rail.network],
  });
  if (options.maxAmountPerPayment !== undefined)
    client.setSpendControls({ maxAmountPerPayment: options.maxAmountPerPayment });
  return wrapFetchWithPayment(options.fetch ?? fetch, client);
}
