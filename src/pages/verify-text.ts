/**
 * The explanatory text of /gspc-verify: one row per check of src/core/verify/card-verifier.ts
 * (the names are the verifier's own `CheckName`s, which the script's result tables show too),
 * the three results of an offer or receipt check, and the public files the check reads.
 */
import type { CheckName } from '../core/verify/card-verifier.js';

export const CHECK_ROWS: readonly (readonly [CheckName, string, string])[] = [
  ['shape', 'the card is a JSON object with schema card-v1, a 64-hex sha256 and a signer', 'the card'],
  [
    'content_address',
    'the SHA-256 of the RFC 8785 canonical body (the card without sha256, url, sig_ed25519, unsigned_reason) equals its sha256, and its url names that id',
    'the card',
  ],
  [
    'signature',
    'sig_ed25519 is an Ed25519 signature of that canonical body under the key its signer names in the DID document its DID’s host serves (never the identity root, which signs no card)',
    'the DID’s host: /.well-known/did.json',
  ],
  [
    'not_withdrawn',
    'the card is not in the withdrawal ledger (a withdrawn card gives the ledger’s reason)',
    '/ledgers/withdrawals.json',
  ],
  ['not_superseded', 'the card is not in the supersession ledger', '/ledgers/supersessions.json'],
  [
    'under_root',
    'the card is a leaf of the signed public root: its inclusion proof, read with the signed leaf_count, leads to the signed merkle_root (or the whole bundle recomputes to it)',
    '/root.json, /cards/<id>.proof.json',
  ],
  [
    'in_log',
    'the card is an entry of the card log whose checkpoint the board key signed',
    '/log/checkpoint, /log/entries.json',
  ],
];

export const JWS_ROWS: readonly (readonly ['VALID' | 'INVALID' | 'UNVERIFIABLE_KEY', string])[] = [
  [
    'VALID',
    'the JWS parses, alg is EdDSA, the payload is RFC 8785 canonical JSON, the kid is a key of the DID document this service’s DID’s host serves, and the signature verifies under it',
  ],
  [
    'INVALID',
    'anything is malformed or altered, the kid is not listed in the DID document, or the signature does not verify',
  ],
  [
    'UNVERIFIABLE_KEY',
    'the kid names another DID (this page fetches no other DID’s keys), a method without an Ed25519 public key, or the DID’s host cannot be read: never VALID',
  ],
];

export const SOURCE_FILES: readonly (readonly [string, string])[] = [
  [
    '/.well-known/did.json',
    'this origin’s copy of the DID document: the service’s Ed25519 public keys, checked against the one its DID’s host serves',
  ],
  ['/root.json', 'the signed public root over the active cards'],
  ['/cards-bundle.json', 'every active card in one file'],
  ['/cards/index.json', 'the list of cards, with their ids'],
  ['/ledgers/withdrawals.json', 'withdrawn cards and why'],
  ['/ledgers/supersessions.json', 'superseded cards and what replaced them'],
  ['/log/checkpoint', 'the card log’s signed checkpoint'],
  ['/log/entries.json', 'every card the log holds, in log order'],
];
