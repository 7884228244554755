/** viem clients for the local chain. Chain id 8453 (Base) so x402's default-asset tables apply unchanged. */
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  publicActions,
  type Chain,
  type Hex,
} from 'viem';
import { createNonceManager, jsonRpc } from 'viem/nonce';
import { privateKeyToAccount } from 'viem/accounts';

export const CHAIN_ID = 8453;
export const NETWORK = 'eip155:8453' as const;

/** viem polls every 4 s by default on a custom chain; a local automining chain answers in milliseconds. */
const POLLING_MS = 50;

export function localBaseChain(rpcUrl: string): Chain {
  return defineChain({
    id: CHAIN_ID,
    name: 'Base (local anvil)',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export function railPublicClient(chain: Chain) {
  return createPublicClient({ chain, transport: http(), pollingInterval: POLLING_MS });
}

/**
 * A wallet client with public actions. Each one gets its OWN nonce manager: viem's shared
 * `nonceManager` remembers the last nonce per (address, chain id) for the life of the process,
 * so a second rail (a fresh anvil, nonce 0 again) would send "future" nonces that never mine.
 */
export function railWalletClient(chain: Chain, privateKey: Hex) {
  const account = privateKeyToAccount(privateKey, { nonceManager: createNonceManager({ source: jsonRpc() }) });
  return createWalletClient({ account, chain, transport: http(), pollingInterval: POLLING_MS }).extend(publicActions);
}

/** anvil_* cheat calls (setCode) for placing contracts at fixed addresses. */
export function railTestClient(chain: Chain) {
  return createTestClient({ mode: 'anvil', chain, transport: http(), pollingInterval: POLLING_MS });
}

export type RailWalletClient = ReturnType<typeof railWalletClient>;
export type RailPublicClient = ReturnType<typeof railPublicClient>;
export type RailTestClient = ReturnType<typeof railTestClient>;
