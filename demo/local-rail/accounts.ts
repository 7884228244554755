/**
 * The four accounts the rail uses. They are anvil's default dev accounts, derived from the PUBLIC
 * mnemonic "test test test test test test test test test test test junk" (indices 0-3). Everyone
 * knows these keys: they are for local tests only and must never hold real funds. A signature made
 * with them for chain id 8453 has the Base-mainnet format, which is harmless because they are public.
 */
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

export interface RailAccount {
  readonly address: Address;
  readonly privateKey: Hex;
}

function devAccount(privateKey: Hex): RailAccount {
  return Object.freeze({ address: privateKeyToAccount(privateKey).address, privateKey });
}

/** Index 0: deploys the token and holds every token role (owner, pauser, blacklister, master minter, minter). */
export const OWNER = devAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
/** Index 1: the buyer; gets `payerUsdc` minted at start. */
export const PAYER = devAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
/** Index 2: the service's payee (`payTo`); starts with 0 USDC. */
export const PAY_TO = devAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
/** Index 3: the facilitator's signer; pays the gas of `transferWithAuthorization` (anvil funds it with ETH). */
export const FACILITATOR = devAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');
