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

/**
 * The identity root (issue 36): the key that authorises key changes, kept off the serving
 * machine, as TUF keeps its root role apart from the keys that sign every day. It signs no card,
 * board or receipt; it signs revocations, root rotations and the adoption of a key history
 * written before it existed. Its public half is in the DID document (`#identity-root`).
 */
export const ROOT_KEY = 'identity-root';
/** Every fragment whose key can change by a logged transition: the signing keys and the root. */
export type TransitionFragment = KeyFragment | typeof ROOT_KEY;
