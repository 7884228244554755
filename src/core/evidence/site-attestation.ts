/**
 * `site_attestation` on the board: integrity of the served snapshot, not a re-measurement.
 * Preimage rule (published in docs/formats.md): parse the served JSON, remove
 * `site_attestation.sig` and `measured_on.living_stamp`, and take the RFC 8785 bytes.
 * The living stamp is excluded because it reports the service's own check of this signature
 * (specification rule 4: "the living stamp is verified independently").
 */
import { canonicalBytesStrict as canonicalBytes } from '../crypto/canonical-json.js';
import type { SignerState } from './signer.js';

export const ATTESTS =
  'Integrity of this board snapshot as served (RFC 8785 bytes without site_attestation.sig and measured_on.living_stamp); not a re-measurement.';

export interface SiteAttestation {
  attests: string;
  signer: string;
  alg: 'Ed25519';
  sig?: string;
}

export function attestationPreimage(board: Record<string, unknown>): Buffer {
  const copy = structuredClone(board) as Record<string, unknown> & {
    site_attestation?: Record<string, unknown>;
    measured_on?: Record<string, unknown>;
  };
  if (copy.site_attestation) delete copy.site_attestation.sig;
  if (copy.measured_on) delete copy.measured_on.living_stamp;
  return canonicalBytes(copy);
}

/**
 * Adds `site_attestation` to a board (in place) and signs it when the key is healthy; with an
 * unhealthy key the block is present without `sig`.
 */
export function attest(board: Record<string, unknown>, key: SignerState): SiteAttestation {
  const att: SiteAttestation = { attests: ATTESTS, signer: key.healthy ? key.signer.kid : key.kid, alg: 'Ed25519' };
  board.site_attestation = att;
  if (key.healthy) att.sig = key.signer.sign(attestationPreimage(board)).toString('hex');
  return att;
}
