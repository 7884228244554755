/**
 * The one card verifier, used by `POST /api/verify`, `gspc verify` and the /gspc-verify page.
 * A card is VALID only when every check passes: its content address, its signature under a key
 * the service's DID document lists, not withdrawn, not superseded, and included under the
 * signed public root. Each check reports its own reason.
 */
import { canonicalJsonStrict } from '../crypto/canonical-json.js';
import { verifyDupProof } from './dup-proof.js';
import { verifyLogInclusion } from './log-proof.js';
import {
  loggedBeforeCompromise,
  revocationOf,
  revocationOfMethod,
  revokedReason,
  type Revocation,
} from './revocation.js';
import {
  base64urlToBytes as base64url,
  bytesToBase64url,
  bytesToHex,
  hexToBytes,
  utf8,
  type VerifyCrypto,
} from '../crypto/verify-crypto.js';

export type CheckName =
  | 'shape'
  | 'content_address'
  | 'signature'
  | 'not_withdrawn'
  | 'not_superseded'
  | 'under_root'
  | 'in_log';
export interface Check {
  check: CheckName;
  ok: boolean;
  detail: string;
}
export interface CardVerdict {
  sha256: string | null;
  /** The card verifier gives VALID or INVALID; UNVERIFIABLE_KEY is a VALID card whose keys could not be anchored (key-source.ts). */
  result: 'VALID' | 'INVALID' | 'UNVERIFIABLE_KEY';
  reasons: string[];
  checks: Check[];
}

export interface InclusionProof {
  leaf_index: number;
  leaf_count: number;
  proof: string[];
}

export interface CardVerificationContext {
  /**
   * Verification methods of the service's DID document: kid (DID URL) → raw public key, the
   * retired keys (`<kid>~<n>`) included: a card an earlier key signed verifies under it.
   */
  keys: ReadonlyMap<string, Uint8Array>;
  /** Keys `gspc keys revoke` named (the DID document's `retired.revoked`; revocationsOfDidDocument). */
  revocations?: readonly Revocation[];
  /** The signed public root, after its own signature was checked (`rootSignatureValid`). */
  root: { merkle_root: string; leaf_count: number; as_of: string } | null;
  rootSignatureValid: boolean;
  withdrawn: ReadonlyMap<string, string>;
  superseded: ReadonlyMap<string, string>;
  proofFor(sha256: string): Promise<InclusionProof | undefined> | InclusionProof | undefined;
  /**
   * Cards already shown to be under the signed root, e.g. because the verifier recomputed the
   * root from the whole bundle and it matched the signed root and count. Their per-card proof
   * is then redundant and skipped.
   */
  knownIncluded?: ReadonlySet<string>;
  /**
   * The card log, when the verifier has it: its checkpoint (already opened with the board key,
   * `checkpointValid`) and an inclusion proof per card. Cards in `knownLogged` were shown to be
   * in the log by recomputing its root from all entries.
   */
  log?: {
    origin: string;
    tree_size: number;
    root_hash: string;
    checkpointValid: boolean;
    proofFor(sha256: string): Promise<LogInclusionProof | undefined> | LogInclusionProof | undefined;
    knownLogged?: ReadonlySet<string>;
    /** With `knownLogged`: the entry's index in the log (the revocation rule reads it). */
    indexOf?(sha256: string): number | undefined;
  };
}

export interface LogInclusionProof {
  leaf_index: number;
  tree_size: number;
  proof: string[];
}

const OUTER = new Set(['sha256', 'url', 'sig_ed25519', 'unsigned_reason']);

/**
 * The identity root (`#identity-root`, and its retired `~<n>` keys) authorises key changes and
 * signs nothing else (issue 36): no card, root, board, checkpoint, agent card, offer or receipt.
 * A kid naming it is refused whatever key the DID document lists for it.
 */
export const signsNothing = (kid: unknown): boolean => typeof kid === 'string' && /#identity-root(~\d+)?$/.test(kid);
export const ROOT_SIGNS_NOTHING = (kid: string): string =>
  `signed by ${kid}: the identity root authorises key changes and signs nothing else`;

export async function verifyCard(
  input: unknown,
  ctx: CardVerificationContext,
  crypto: VerifyCrypto,
): Promise<CardVerdict> {
  const checks: Check[] = [];
  const add = (check: CheckName, ok: boolean, detail: string) => checks.push({ check, ok, detail });
  const done = (sha256: string | null): CardVerdict => {
    const reasons = checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);
    return { sha256, result: reasons.length === 0 ? 'VALID' : 'INVALID', reasons, checks };
  };
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    add('shape', false, 'a card is a JSON object');
    return done(null);
  }
  const card = input as Record<string, unknown>;
  const claimed = typeof card.sha256 === 'string' && /^[0-9a-f]{64}$/.test(card.sha256) ? card.sha256 : null;
  if (!claimed || typeof card.signer !== 'string' || card.schema !== 'card-v1') {
    add('shape', false, 'needs schema card-v1, a 64-hex sha256 and a signer');
    return done(claimed);
  }
  add('shape', true, 'card-v1');

  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(card)) if (!OUTER.has(k)) body[k] = v;
  let bodyBytes: Uint8Array;
  try {
    bodyBytes = utf8(canonicalJsonStrict(body));
  } catch {
    add('content_address', false, 'the body cannot be canonicalised (RFC 8785)');
    return done(claimed);
  }
  const actual = bytesToHex(await crypto.sha256(bodyBytes));
  const urlOk = card.url === undefined || card.url === `/cards/${claimed.slice(0, 16)}.json`;
  add(
    'content_address',
    actual === claimed && urlOk,
    actual !== claimed
      ? `hash mismatch: the body hashes to ${actual}`
      : urlOk
        ? 'SHA-256 of the RFC 8785 body matches'
        : 'url does not name the card id',
  );

  const sig = card.sig_ed25519;
  const key = signsNothing(card.signer) ? undefined : ctx.keys.get(card.signer);
  if (sig === null || sig === undefined)
    add('signature', false, `unsigned${typeof card.unsigned_reason === 'string' ? `: ${card.unsigned_reason}` : ''}`);
  else if (signsNothing(card.signer)) add('signature', false, ROOT_SIGNS_NOTHING(card.signer));
  else if (!key)
    add('signature', false, `key not in the DID document: ${card.signer} is not listed among its verification methods`);
  else {
    const sigBytes = typeof sig === 'string' ? hexToBytes(sig) : undefined;
    const ok =
      sigBytes !== undefined && sigBytes.length === 64 && (await crypto.ed25519Verify(key, bodyBytes, sigBytes));
    if (ok) add('signature', true, `Ed25519 verified under ${card.signer}`);
    else {
      const retired =
        sigBytes?.length === 64 ? await retiredSigner(card.signer, ctx, bodyBytes, sigBytes, crypto) : undefined;
      if (retired === undefined) add('signature', false, `bad signature: does not verify under ${card.signer}`);
      else await checkRetired(claimed, retired, ctx, crypto, add);
    }
  }
  const withdrawn = ctx.withdrawn.get(claimed);
  add(
    'not_withdrawn',
    withdrawn === undefined,
    withdrawn === undefined ? 'not in the withdrawal ledger' : `withdrawn: ${withdrawn}`,
  );
  const by = ctx.superseded.get(claimed);
  add('not_superseded', by === undefined, by === undefined ? 'not in the supersession ledger' : `superseded by ${by}`);

  if (!ctx.root || !ctx.rootSignatureValid)
    add(
      'under_root',
      false,
      ctx.root ? 'the public root signature does not verify' : 'no public root to check against',
    );
  else if (ctx.knownIncluded?.has(claimed))
    add(
      'under_root',
      true,
      `included: the root recomputed from the whole bundle equals the signed root (${ctx.root.leaf_count} leaves)`,
    );
  else {
    const proof = await ctx.proofFor(claimed);
    const included =
      proof !== undefined &&
      proof.leaf_count === ctx.root.leaf_count &&
      (await verifyDupProof(crypto, claimed, proof.leaf_index, ctx.root.leaf_count, proof.proof, ctx.root.merkle_root));
    add(
      'under_root',
      included,
      included
        ? `included under merkle_root ${ctx.root.merkle_root.slice(0, 16)}… (${ctx.root.leaf_count} leaves, as of ${ctx.root.as_of})`
        : 'not under the current root',
    );
  }
  if (ctx.log) await checkLog(claimed, ctx.log, crypto, add);
  return done(claimed);
}

/** The retired key of `signer` (a DID document's `<signer>~<n>` method) that made `sig`, if one did. */
async function retiredSigner(
  signer: string,
  ctx: CardVerificationContext,
  body: Uint8Array,
  sig: Uint8Array,
  crypto: VerifyCrypto,
): Promise<{ id: string; key: Uint8Array } | undefined> {
  for (const [id, key] of ctx.keys)
    if (id.startsWith(`${signer}~`) && (await crypto.ed25519Verify(key, body, sig))) return { id, key };
  return undefined;
}

/**
 * A card signed by a retired key: valid, as every card an earlier key signed is (issue 30),
 * unless that key was revoked and the log does not hold the card among the entries made before
 * the compromise (src/core/verify/revocation.ts).
 */
async function checkRetired(
  sha: string,
  retired: { id: string; key: Uint8Array },
  ctx: CardVerificationContext,
  crypto: VerifyCrypto,
  add: (c: CheckName, ok: boolean, d: string) => void,
): Promise<void> {
  const x = bytesToBase64url(retired.key);
  const revoked = revocationOf(ctx.revocations, x);
  if (revoked === undefined) {
    add('signature', true, `Ed25519 verified under ${retired.id}, the key its signer had before a rotation`);
    return;
  }
  const index = await logIndex(sha, ctx.log, crypto);
  if (loggedBeforeCompromise(revoked, index))
    add(
      'signature',
      true,
      `Ed25519 verified under ${retired.id}, revoked since ${revoked.compromised_since}, and the log holds the card as entry ${index}, among the ${revoked.trusted_size} logged before then`,
    );
  else
    add(
      'signature',
      false,
      revokedReason(
        revoked,
        retired.id,
        index === undefined
          ? 'the log does not show the card'
          : `the log holds the card as entry ${index}, not among the ${revoked.trusted_size} logged before then`,
      ),
    );
}

/** Where the signed log holds `sha`: from a log recomputed whole, or by a checked inclusion proof. */
async function logIndex(
  sha: string,
  log: CardVerificationContext['log'],
  crypto: VerifyCrypto,
): Promise<number | undefined> {
  if (!log?.checkpointValid) return undefined;
  if (log.knownLogged?.has(sha) && log.indexOf) return log.indexOf(sha);
  const proof = await log.proofFor(sha);
  const logged =
    proof !== undefined &&
    proof.tree_size === log.tree_size &&
    (await verifyLogInclusion(crypto, sha, proof.leaf_index, log.tree_size, proof.proof, log.root_hash));
  return logged ? proof.leaf_index : undefined;
}

async function checkLog(
  sha: string,
  log: NonNullable<CardVerificationContext['log']>,
  crypto: VerifyCrypto,
  add: (c: CheckName, ok: boolean, d: string) => void,
): Promise<void> {
  if (!log.checkpointValid) {
    add('in_log', false, 'the log checkpoint does not verify under the board key');
    return;
  }
  if (log.knownLogged?.has(sha)) {
    add(
      'in_log',
      true,
      `in the log: its root recomputed from all ${log.tree_size} entries equals the signed checkpoint`,
    );
    return;
  }
  const proof = await log.proofFor(sha);
  const ok =
    proof !== undefined &&
    proof.tree_size === log.tree_size &&
    (await verifyLogInclusion(crypto, sha, proof.leaf_index, log.tree_size, proof.proof, log.root_hash));
  add(
    'in_log',
    ok,
    ok
      ? `entry ${proof!.leaf_index} of the log ${log.origin} (checkpoint size ${log.tree_size})`
      : `not in the log ${log.origin} at checkpoint size ${log.tree_size}`,
  );
}

/** The revocations a DID document records on its retired keys (did.ts). */
export function revocationsOfDidDocument(doc: unknown): Revocation[] {
  const methods = (doc as { verificationMethod?: unknown })?.verificationMethod;
  return Array.isArray(methods) ? methods.flatMap((m) => revocationOfMethod(m) ?? []) : [];
}

/**
 * The first verification-method id a DID document lists twice, if any. DID Core makes ids
 * unique; a document that doubles one means two keys to verifiers that pick differently (one
 * took the first, another the last: issue 36), so every verifier refuses it whole.
 */
export function doubledMethodId(doc: unknown): string | undefined {
  const methods = (doc as { verificationMethod?: unknown })?.verificationMethod;
  if (!Array.isArray(methods)) return undefined;
  const seen = new Set<string>();
  for (const m of methods as { id?: unknown }[]) {
    if (typeof m?.id !== 'string') continue;
    if (seen.has(m.id)) return m.id;
    seen.add(m.id);
  }
  return undefined;
}

/** What a `did_document` check says of a document that doubles a method id, in every verifier alike; undefined when it does not. */
export function doubledMethodDetail(doc: unknown): string | undefined {
  const id = doubledMethodId(doc);
  return id === undefined ? undefined : `the DID document lists ${id} twice: refused whole`;
}

/** The raw Ed25519 keys a DID document lists, by verification-method id (none when it doubles an id). */
export function keysOfDidDocument(doc: unknown): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const methods = (doc as { verificationMethod?: unknown })?.verificationMethod;
  if (!Array.isArray(methods) || doubledMethodId(doc) !== undefined) return out;
  for (const m of methods as { id?: unknown; publicKeyJwk?: { kty?: unknown; crv?: unknown; x?: unknown } }[]) {
    const jwk = m.publicKeyJwk;
    if (typeof m.id !== 'string' || jwk?.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') continue;
    const raw = base64url(jwk.x);
    if (raw && raw.length === 32) out.set(m.id, raw);
  }
  return out;
}
