/** Local x402 payment rail for tests and the payment demo. See README.md. */
export { FACILITATOR, OWNER, PAY_TO, PAYER, type RailAccount } from './accounts.js';
export { anvilBinaryPath } from './anvil.js';
export { CHAIN_ID, localBaseChain, NETWORK } from './chain.js';
export type { FacilitatorMode, FacilitatorModeOptions } from './facilitator-server.js';
export { MULTICALL3_ADDRESS } from './multicall3.js';
export { payingFetch, type PayingFetch, type PayingFetchOptions } from './paying-fetch.js';
export { startLocalRail, type LocalRail, type StartLocalRailOptions } from './rail.js';
export { USDC_ADDRESS, usdcAbi } from './usdc.js';
