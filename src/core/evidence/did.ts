/**
 * did:web identifiers and the DID document (`/.well-known/did.json`). The host may carry a port,
 * whose colon did:web percent-encodes (`did:web:localhost%3A8080`); an already-encoded host is
 * accepted as is. did:web forbids IP addresses.
 */
import { GspcError } from '../errors.js';
import { publicJwk } from '../crypto/jwk.js';
import { isKeyChange, transitionId, type TransitionRecord } from './key-transition.js';
import { ROOT_KEY, type TransitionFragment } from './signer.js';

const HOST =
  /^(?=.{1,253}(?:%3A|:|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?:(?::|%3A)[0-9]{1,5})?$/i;

export function didForHost(host: string): string {
  const h = host.trim().toLowerCase();
  if (!HOST.test(h))
    throw new GspcError('config_invalid', `GSPC_DID_HOST '${host}' is not a host name with an optional port`);
  const name = h.replace(/%3a/i, ':').split(':')[0]!;
  if (/^[0-9.]+$/.test(name) || name.includes(':'))
    throw new GspcError('config_invalid', `GSPC_DID_HOST '${host}': did:web does not allow IP addresses`);
  return `did:web:${h.replace(/%3a/i, ':').replace(':', '%3A')}`;
}

/** The URL a did:web resolves to (https, or http for localhost as local tests need). */
export function didDocumentUrl(did: string): string {
  const host = did.slice('did:web:'.length).replace('%3A', ':');
  const scheme = /^localhost(:|$)/.test(host) ? 'http' : 'https';
  return `${scheme}://${host}/.well-known/did.json`;
}

export interface PublishedKey {
  /** A signing key's fragment, or `identity-root` (issue 36: it authorises key changes and signs nothing else). */
  fragment: TransitionFragment;
  publicKey: Uint8Array;
}

interface VerificationMethod {
  id: string;
  type: 'JsonWebKey2020';
  controller: string;
  publicKeyJwk: ReturnType<typeof publicJwk>;
  /** A retired key (issue 30): the key its fragment had before a transition, kept so what it signed still verifies. */
  retired?: {
    fragment: string;
    sequence: number;
    at: string;
    transition: string;
    /** `gspc keys revoke`: what it signed counts only if the log holds it among the first `trusted_size` entries. */
    revoked?: { compromised_since: string; trusted_size: number; trusted_root?: string; revocation: string };
  };
}

export interface DidDocument {
  '@context': string[];
  id: string;
  verificationMethod: VerificationMethod[];
  assertionMethod: string[];
  /** The identity root (issue 36): the key that authorises changes of the others, never an assertion method. */
  capabilityInvocation?: string[];
}

/**
 * The DID document: the current keys (each also an assertion method), then every retired key
 * as `#<fragment>~<sequence>` with the transition that retired it (not an assertion method: it
 * signs nothing any more; verifiers that follow /keys/transitions.json use it for what it signed).
 */
export function didDocument(
  did: string,
  keys: readonly PublishedKey[],
  transitions: readonly TransitionRecord[] = [],
): DidDocument {
  const methods: VerificationMethod[] = keys.map((k) => ({
    id: `${did}#${k.fragment}`,
    type: 'JsonWebKey2020' as const,
    controller: did,
    publicKeyJwk: publicJwk(k.publicKey),
  }));
  const changes = transitions.filter(isKeyChange);
  const revocations = changes.flatMap((t) => (t.kind === 'revocation' ? [t] : []));
  const retired: VerificationMethod[] = changes.map((t) => {
    const revokedBy = revocations.find((r) => r.fragment === t.fragment && r.revoked_x === t.old_x);
    return {
      id: `${did}#${t.fragment}~${t.sequence}`,
      type: 'JsonWebKey2020' as const,
      controller: did,
      publicKeyJwk: publicJwk(Buffer.from(t.old_x, 'base64url')),
      retired: {
        fragment: t.fragment,
        sequence: t.sequence,
        at: t.at,
        transition: transitionId(t),
        ...(revokedBy && {
          revoked: {
            compromised_since: revokedBy.compromised_since,
            trusted_size: revokedBy.trusted_size,
            ...('trusted_root' in revokedBy && { trusted_root: revokedBy.trusted_root }),
            revocation: transitionId(revokedBy),
          },
        }),
      },
    };
  });
  const roots = methods.filter((m) => m.id.endsWith(`#${ROOT_KEY}`));
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id: did,
    verificationMethod: [...methods, ...retired],
    assertionMethod: methods.filter((m) => !m.id.endsWith(`#${ROOT_KEY}`)).map((m) => m.id),
    ...(roots.length > 0 && { capabilityInvocation: roots.map((m) => m.id) }),
  };
}
