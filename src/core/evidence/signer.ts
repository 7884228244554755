/**
 * A signing key as core sees it: an id and a function. Keys are loaded and health-checked by
 * src/keys; core never reads a key file. An unhealthy key is passed as `SignerState` with a
 * reason, so every artefact can say why it is unsigned (fail closed, never a wrong signature).
 */
export interface Signer {
  /** DID URL of the verification method, e.g. `did:web:example.org#board-attestation-1`. */
  kid: string;
  publicKey: Uint8Array;
  sign(message: Uint8Array): Buffer;
}

export type SignerState = { healthy: true; signer: Signer } | { healthy: false; kid: string; reason: string };

/** Fragments of the service's keys (specification, "Authentication"). */
export const BOARD_KEY = 'board-attestation-1';
export const CARD_KEYS = ['card-attestation-1', 'card-attestation-2'] as const;
export const ALL_KEYS = [BOARD_KEY, ...CARD_KEYS] as const;
export type KeyFragment = (typeof ALL_KEYS)[number];
