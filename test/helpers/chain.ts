/** Whether the local chain (anvil, from npm) can run here; the chain tests skip loudly when not. */
import { anvilBinaryPath } from '../../demo/local-rail/index.js';

/** Why the chain cannot run on this machine (said loudly), or undefined. */
export function noAnvil(): string | undefined {
  try {
    anvilBinaryPath();
    return undefined;
  } catch (e) {
    const reason = `SKIPPED: no local chain: ${(e as Error).message}`;
    process.stderr.write(`\n*** ${reason} ***\n`);
    return reason;
  }
}
