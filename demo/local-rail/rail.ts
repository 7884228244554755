/**
 * startLocalRail: a private Base-like chain (anvil, chain id 8453) with Circle's real USDC contract
 * at the Base USDC address, funded dev accounts and, by default, the official x402 facilitator
 * served over HTTP on 127.0.0.1. Nothing is mocked; only the chain is local.
 */
import type { Address } from 'viem';
import { FACILITATOR, OWNER, PAY_TO, PAYER, type RailAccount } from './accounts.js';
import { startAnvil, type AnvilProcess } from './anvil.js';
import { CHAIN_ID, localBaseChain, NETWORK, railPublicClient, railTestClient, railWalletClient } from './chain.js';
import { CONFIRMATION_TIMEOUT_MS, createLocalFacilitator, type ReceiptWait } from './facilitator.js';
import {
  serveFacilitator,
  type FacilitatorMode,
  type FacilitatorModeOptions,
  type FacilitatorServer,
} from './facilitator-server.js';
import { deployMulticall3 } from './multicall3.js';
import { deployUsdc, mintUsdc, USDC_ADDRESS, usdcBalance } from './usdc.js';

export interface StartLocalRailOptions {
  /** USDC minted to the payer at start, in atomic units (6 decimals); default 5_000_000n (5 USDC). */
  payerUsdc?: bigint;
  /** Serve the x402 facilitator over HTTP; default true. */
  facilitator?: boolean;
}

export interface LocalRail {
  readonly rpcUrl: string;
  readonly chainId: typeof CHAIN_ID;
  readonly network: typeof NETWORK;
  /** 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913, the Base USDC address. */
  readonly usdc: Address;
  /** Whether Multicall3 was placed at its canonical address (precise failure reasons from the facilitator). */
  readonly multicall3: boolean;
  readonly owner: RailAccount;
  readonly payer: RailAccount;
  readonly payTo: RailAccount;
  readonly facilitatorAccount: RailAccount;
  /** Base URL for HTTPFacilitatorClient; absent when started with `facilitator: false`. */
  readonly facilitatorUrl?: string;
  /** USDC balance in atomic units. */
  balanceOf(address: Address): Promise<bigint>;
  /** Mints USDC (atomic units) as the token owner. */
  mint(to: Address, amount: bigint): Promise<void>;
  /** Makes the facilitator misbehave (see FacilitatorMode); throws if the rail has no facilitator. */
  facilitatorMode(mode: FacilitatorMode, options?: FacilitatorModeOptions): void;
  /** Mines the transfers `settle-pending` (with `land: 'held'`) broadcast and held; resumes automining. */
  landPending(): Promise<void>;
  /** Closes the facilitator server and stops anvil. Safe to call twice. */
  stop(): Promise<void>;
}

export async function startLocalRail(options: StartLocalRailOptions = {}): Promise<LocalRail> {
  const anvil = await startAnvil(CHAIN_ID);
  let server: FacilitatorServer | undefined;
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      try {
        await server?.close();
      } finally {
        await anvil.stop();
      }
    })());
  try {
    return await setUp(anvil, options, stop, (s) => {
      server = s;
    });
  } catch (error) {
    await stop();
    throw error;
  }
}

async function setUp(
  anvil: AnvilProcess,
  options: StartLocalRailOptions,
  stop: () => Promise<void>,
  onServer: (s: FacilitatorServer) => void,
): Promise<LocalRail> {
  const chain = localBaseChain(anvil.rpcUrl);
  const owner = railWalletClient(chain, OWNER.privateKey);
  const test = railTestClient(chain);
  const reader = railPublicClient(chain);
  await deployUsdc(owner, test);
  const multicall3 = await deployMulticall3(owner, test);
  await mintUsdc(owner, PAYER.address, options.payerUsdc ?? 5_000_000n);
  let server: FacilitatorServer | undefined;
  // settle-pending: the chain stops mining and the facilitator's receipt wait is cut short, so
  // the transfer is broadcast but unconfirmed when the facilitator answers; land() mines it.
  const wait: ReceiptWait = { timeoutMs: CONFIRMATION_TIMEOUT_MS };
  let held = false;
  const pending = {
    async hold(receiptWaitMs: number) {
      wait.timeoutMs = receiptWaitMs;
      await test.setAutomine(false);
      held = true;
    },
    async land() {
      if (!held) return;
      held = false;
      await test.mine({ blocks: 1 });
      await test.setAutomine(true);
      wait.timeoutMs = CONFIRMATION_TIMEOUT_MS;
    },
  };
  if (options.facilitator ?? true) {
    server = await serveFacilitator(createLocalFacilitator(chain, FACILITATOR.privateKey, wait), pending);
    onServer(server);
  }
  return {
    rpcUrl: anvil.rpcUrl,
    chainId: CHAIN_ID,
    network: NETWORK,
    usdc: USDC_ADDRESS,
    multicall3,
    owner: OWNER,
    payer: PAYER,
    payTo: PAY_TO,
    facilitatorAccount: FACILITATOR,
    ...(server ? { facilitatorUrl: server.url } : {}),
    balanceOf: (address) => usdcBalance(reader, address),
    mint: (to, amount) => mintUsdc(owner, to, amount),
    facilitatorMode(mode, modeOptions) {
      if (!server) throw new Error('this rail was started with facilitator: false');
      server.setMode(mode, modeOptions);
    },
    landPending: () => pending.land(),
    stop,
  };
}
