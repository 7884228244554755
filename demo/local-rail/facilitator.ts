/**
 * The official x402 facilitator (`x402Facilitator` + `ExactEvmScheme` from @x402/evm) over a viem
 * wallet client for the facilitator's dev key. The wiring mirrors the reference example
 * (examples/typescript/facilitator/basic in coinbase/x402); the nonce manager lets concurrent
 * settlements each get their own nonce (without it some fail with "nonce too low").
 */
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import type { Chain, Hex } from 'viem';
import { NETWORK, railWalletClient } from './chain.js';

/** A settle whose receipt does not arrive within this time answers `settlement_pending` (the library default is 180 s). */
export const CONFIRMATION_TIMEOUT_MS = 20_000;

/**
 * How long the facilitator waits for a settlement's receipt, changeable while it runs: the
 * `settle-pending` mode shortens it so that the library's own `settlement_pending` answer (the
 * transfer broadcast, its receipt not seen in time) comes back in milliseconds.
 */
export interface ReceiptWait {
  timeoutMs: number;
}

export function createLocalFacilitator(
  chain: Chain,
  privateKey: Hex,
  wait: ReceiptWait = { timeoutMs: CONFIRMATION_TIMEOUT_MS },
): x402Facilitator {
  const wallet = railWalletClient(chain, privateKey);
  // The signer interface types ABIs as `readonly unknown[]`; viem's generics cannot check them, hence the casts.
  type ReadArgs = Parameters<typeof wallet.readContract>[0];
  type WriteArgs = Parameters<typeof wallet.writeContract>[0];
  type TypedDataArgs = Parameters<typeof wallet.verifyTypedData>[0];
  const signer = toFacilitatorEvmSigner(
    {
      address: wallet.account.address,
      getCode: (a) => wallet.getCode(a),
      readContract: (a) => wallet.readContract({ ...a, args: a.args ?? [] } as ReadArgs),
      verifyTypedData: (a) => wallet.verifyTypedData(a as unknown as TypedDataArgs),
      writeContract: (a) => wallet.writeContract({ ...a, args: a.args ?? [] } as unknown as WriteArgs),
      sendTransaction: (a) => wallet.sendTransaction(a),
      // The signer passes its own bound; the one in `wait` (read at each call) replaces it.
      waitForTransactionReceipt: (a) => wallet.waitForTransactionReceipt({ ...a, timeout: wait.timeoutMs }),
    },
    { confirmationTimeoutMs: CONFIRMATION_TIMEOUT_MS },
  );
  return new x402Facilitator().register(NETWORK, new ExactEvmScheme(signer));
}
