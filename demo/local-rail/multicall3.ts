/**
 * Multicall3 at its canonical address. @x402/evm uses it only to diagnose a failed simulation
 * (balance, name, version, authorizationState in one call); without it every such failure is
 * reported as the generic `invalid_exact_evm_transaction_simulation_failed`.
 *
 * No installed package exports Multicall3's bytecode. viem carries its creation code internally
 * (`multicall3Bytecode` in constants/contracts.js, used for deployless multicalls) but its export
 * map hides that module, so it is read from the installed file. If viem ever drops or renames it,
 * the rail continues without Multicall3 (`LocalRail.multicall3` is then false).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getAddress, parseAbi, type Address, type Hex } from 'viem';
import type { RailTestClient, RailWalletClient } from './chain.js';

export const MULTICALL3_ADDRESS: Address = getAddress('0xcA11bde05977b3631167028862bE2a173976CA11');

const probeAbi = parseAbi(['function getChainId() view returns (uint256)']);

/** viem's internal Multicall3 creation code, or undefined if it cannot be found. */
export function multicall3CreationCode(): Hex | undefined {
  try {
    const viemRoot = join(dirname(createRequire(import.meta.url).resolve('viem')), '..');
    const source = readFileSync(join(viemRoot, '_esm', 'constants', 'contracts.js'), 'utf8');
    return /multicall3Bytecode\s*=\s*['"](0x[0-9a-fA-F]+)['"]/.exec(source)?.[1] as Hex | undefined;
  } catch {
    return undefined;
  }
}

/** Deploys Multicall3 and copies its runtime to the canonical address; false if the bytecode is unavailable. */
export async function deployMulticall3(owner: RailWalletClient, test: RailTestClient): Promise<boolean> {
  const creation = multicall3CreationCode();
  if (!creation) return false;
  const hash = await owner.sendTransaction({ data: creation });
  const receipt = await owner.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress)
    throw new Error(`Multicall3 deploy failed in tx ${hash}`);
  const runtime = await owner.getCode({ address: receipt.contractAddress });
  if (!runtime) throw new Error('Multicall3 deployed without runtime code');
  await test.setCode({ address: MULTICALL3_ADDRESS, bytecode: runtime });
  const chainId = await owner.readContract({ address: MULTICALL3_ADDRESS, abi: probeAbi, functionName: 'getChainId' });
  if (chainId !== BigInt(owner.chain.id))
    throw new Error(`Multicall3 at ${MULTICALL3_ADDRESS} answered chain id ${chainId}`);
  return true;
}
