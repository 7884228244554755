/**
 * The signing context of a command: the DID, the loaded keys with their health, and the inputs
 * a publish signs with. Built once from the configuration: the key files in `keyDir`, or, with
 * `token` (GSPC_SIGNER=pkcs11), the keys a PKCS#11 token holds (pkcs11-keys.ts).
 */
import { didForHost } from '../core/evidence/did.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import type { EvidenceInputs } from '../release/evidence.js';
import { loadKeys, type LoadedKeys } from './key-store.js';
import { loadTokenKeys, type TokenConfig } from './pkcs11-keys.js';

export interface SigningContext {
  did: string;
  keys: LoadedKeys;
  inputs: Omit<EvidenceInputs, 'previous'>;
}

export function signingContext(keyDir: string, didHost: string, token?: TokenConfig): SigningContext {
  const did = didForHost(didHost);
  const keys = token === undefined ? loadKeys(keyDir, did) : loadTokenKeys(token, did, keyDir);
  const inputs = { did, boardKey: keys.state(BOARD_KEY), publishedKeys: keys.published };
  return { did, keys, inputs: keys.transitions.length > 0 ? { ...inputs, transitions: keys.transitions } : inputs };
}
