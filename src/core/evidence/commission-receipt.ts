/**
 * The commission receipt of `request_attestation` (specification, "Signed cards", "Commission
 * receipt"): a card-v0 record, surface `ras.commission`, that reserves up to 24 already-signed
 * card-v1 cards for one subject, each with its inclusion proof under the signed public root. It
 * commissions nothing new: `fresh_run` is UNMEASURED. Sealed like a card-v1 (docs/formats.md,
 * "Paid artefacts"): `sha256` = SHA-256 of the RFC 8785 bytes of the body, `sig_ed25519` =
 * Ed25519 over the same bytes, or null with `unsigned_reason` when the board key is unhealthy.
 */
import { createHash } from 'node:crypto';
import { CARD_V0_SCHEMA } from './card-v0-schemas.js';
import { canonicalBytesStrict } from '../crypto/canonical-json.js';
import { verify as ed25519Verify } from '../crypto/ed25519.js';
import type { CardFile } from './card.js';
import { verifyDupInclusion } from './merkle/dup-root.js';
import { leafHash } from './merkle/hash.js';
import type { SignerState } from './signer.js';

/**
 * Schema id of the commission receipt. An identifier, not a served document: it does not depend
 * on the base URL, so receipts from every deployment name the same schema (docs/decisions.md P13).
 */
export const COMMISSION_SURFACE = 'ras.commission';
/** The specification's reserve size ("Limits"); src/payments/attestation-preview.ts has the same. */
export const RESERVE_LIMIT = 24;

/**
 * What each `unmeasured` entry of a commission receipt means. The specification's receipt lists
 * `root_inclusion`; this service attaches each reserved card's inclusion proof under the signed
 * root (issue 4, beyond the specification), so `root_inclusion` is listed only when a reserved
 * card came without one (its `root_inclusion` is then null). The receipt itself is issued after
 * the root it cites and is not a leaf of it: its integrity rests on its sha256 and signature.
 */
export const COMMISSION_UNMEASURED = {
  fresh_run:
    'No new measurement is run for a commission: payload.fresh_run is UNMEASURED and the reserve holds only cards signed before it.',
  root_inclusion:
    'At least one reserved card has no inclusion proof under the cited root (its root_inclusion is null), so its inclusion is not shown by this receipt.',
} as const;

/** A card's inclusion proof under the public root (`svc.card-inclusion-proof/1`, docs/formats.md §5). */
export interface RootInclusionProof {
  leaf_index: number;
  leaf_count: number;
  merkle_root: string;
  proof: string[];
  [field: string]: unknown;
}

/**
 * Whom and what the artefact was produced for: the resource path, and the payer's address or
 * the invoice reference (with the legal entity an invoice names).
 */
export interface CommissionedFor {
  resource: string;
  payer?: string;
  invoice_ref?: string;
  commissioned_by?: string;
}

export interface ReserveEntry {
  sha256: string;
  url: string;
  surface: string;
  subject: string;
  axis: string;
  as_of: string;
  /** The card's proof as `/cards/<id>.proof.json` serves it; null when none was found. */
  root_inclusion: RootInclusionProof | null;
}

export type CommissionReceiptBody = {
  schema: typeof CARD_V0_SCHEMA;
  surface: typeof COMMISSION_SURFACE;
  subject: string;
  as_of: string;
  signer: string;
  payload: {
    status: 'COMMISSIONED';
    axis: string | null;
    root: { url: string; merkle_root: string; leaf_count: number; as_of: string };
    reserve: ReserveEntry[];
    fresh_run: 'UNMEASURED';
    commissioned_for: CommissionedFor;
  };
  unmeasured: (keyof typeof COMMISSION_UNMEASURED)[];
};

export type CommissionReceipt = Seal & CommissionReceiptBody;

export interface RootRef {
  merkle_root: string;
  leaf_count: number;
  as_of: string;
}

export interface CommissionInput {
  subject: string;
  axis: string | null;
  /** When the commission was made (ISO 8601 UTC); passed in, core reads no clock. */
  as_of: string;
  /** The signed public root every reserve proof is under. */
  root: RootRef;
  /** At most 24 active signed cards, each with its proof (undefined when none was found). */
  reserve: readonly {
    card: Pick<CardFile, 'sha256' | 'url' | 'surface' | 'subject' | 'axis' | 'as_of'>;
    proof: RootInclusionProof | undefined;
  }[];
  commissioned_for: CommissionedFor;
}

/** Outer fields of a sealed record: not part of the body that is hashed and signed. */
// Type aliases, not interfaces, so a sealed record is assignable to Record<string, unknown>.
export type Seal = { sha256: string; sig_ed25519: string | null; unsigned_reason?: string };
const SEAL_FIELDS = ['sha256', 'sig_ed25519', 'unsigned_reason'] as const;

/**
 * The card sealing rule for any record body (commission receipt, bundle manifest card, feed):
 * sha256 and Ed25519 over the body's RFC 8785 bytes; an unhealthy key gives a null signature
 * and its reason, never a wrong signature.
 */
export function sealRecord<B extends object>(body: B, key: SignerState): Seal & B {
  for (const f of SEAL_FIELDS) if (f in body) throw new TypeError(`a record body must not carry the outer field ${f}`);
  const bytes = canonicalBytesStrict(body);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (!key.healthy) return { sha256, ...body, sig_ed25519: null, unsigned_reason: key.reason };
  return { sha256, ...body, sig_ed25519: key.signer.sign(bytes).toString('hex') };
}

/** The body of a sealed record: the record without `sha256`, `sig_ed25519`, `unsigned_reason`. */
export function sealedBody(record: object): Record<string, unknown> {
  const body: Record<string, unknown> = { ...record };
  for (const f of SEAL_FIELDS) delete body[f];
  return body;
}

/** Copies the defined members only: an absent payer must be omitted, never `undefined` (RFC 8785 has no undefined). */
export function commissionedFor(c: CommissionedFor): CommissionedFor {
  const out: CommissionedFor = { resource: c.resource };
  if (c.payer !== undefined) out.payer = c.payer;
  if (c.invoice_ref !== undefined) out.invoice_ref = c.invoice_ref;
  if (c.commissioned_by !== undefined) out.commissioned_by = c.commissioned_by;
  return out;
}

export function signerOf(key: SignerState): string {
  return key.healthy ? key.signer.kid : key.kid;
}

/**
 * Builds and seals the commission receipt. Throws `RangeError` on a broken contract: more than
 * 24 reserved cards, or a proof for another card or another root than `input.root`.
 */
export function commissionReceipt(input: CommissionInput, key: SignerState): CommissionReceipt {
  if (input.reserve.length > RESERVE_LIMIT)
    throw new RangeError(`a commission reserves at most ${RESERVE_LIMIT} cards, got ${input.reserve.length}`);
  const reserve = input.reserve.map(({ card, proof }): ReserveEntry => {
    if (
      proof &&
      ((typeof proof.sha256 === 'string' && proof.sha256 !== card.sha256) ||
        proof.merkle_root !== input.root.merkle_root ||
        proof.leaf_count !== input.root.leaf_count)
    ) {
      throw new RangeError(`the proof given for card ${card.sha256} is for another card or another root`);
    }
    return {
      sha256: card.sha256,
      url: card.url,
      surface: card.surface,
      subject: card.subject,
      axis: card.axis,
      as_of: card.as_of,
      root_inclusion: proof ?? null,
    };
  });
  const unmeasured: (keyof typeof COMMISSION_UNMEASURED)[] = ['fresh_run'];
  if (reserve.some((r) => r.root_inclusion === null)) unmeasured.push('root_inclusion');
  const body: CommissionReceiptBody = {
    schema: CARD_V0_SCHEMA,
    surface: COMMISSION_SURFACE,
    subject: input.subject,
    as_of: input.as_of,
    signer: signerOf(key),
    payload: {
      status: 'COMMISSIONED',
      axis: input.axis,
      root: {
        url: '/root.json',
        merkle_root: input.root.merkle_root,
        leaf_count: input.root.leaf_count,
        as_of: input.root.as_of,
      },
      reserve,
      fresh_run: 'UNMEASURED',
      commissioned_for: commissionedFor(input.commissioned_for),
    },
    unmeasured,
  };
  return sealRecord(body, key);
}

/**
 * Checks a sealed record: its content address, then its signature under `publicKey` (raw 32
 * bytes). Reasons are empty when both hold.
 */
export function verifySealed(sealed: object, publicKey: Uint8Array): string[] {
  const record = sealed as Record<string, unknown>;
  let bytes: Buffer;
  try {
    bytes = canonicalBytesStrict(sealedBody(record));
  } catch (e) {
    return [`content address: the body is not JSON data (${(e as Error).message})`];
  }
  const reasons: string[] = [];
  if (createHash('sha256').update(bytes).digest('hex') !== record.sha256)
    reasons.push('content address: the body does not hash to sha256');
  const sig = record.sig_ed25519;
  if (typeof sig !== 'string')
    reasons.push(
      `signature: unsigned${typeof record.unsigned_reason === 'string' ? ` (${record.unsigned_reason})` : ''}`,
    );
  else if (!/^[0-9a-f]{128}$/.test(sig) || !ed25519Verify(publicKey, bytes, Buffer.from(sig, 'hex')))
    reasons.push('signature: does not verify under the given key');
  return reasons;
}

/**
 * Verifies a commission receipt against the board key and the signed root (taken from
 * `/root.json`, never from the receipt): content address, signature, and every reserve proof.
 */
export function verifyCommissionReceipt(
  sealed: object,
  publicKey: Uint8Array,
  root: { merkle_root: string; leaf_count: number },
): { ok: boolean; reasons: string[] } {
  const receipt = sealed as Record<string, unknown>;
  const reasons = verifySealed(receipt, publicKey);
  if (receipt.schema !== CARD_V0_SCHEMA || receipt.surface !== COMMISSION_SURFACE)
    reasons.push('shape: not a card-v0 commission receipt');
  const reserve = (receipt.payload as { reserve?: unknown } | undefined)?.reserve;
  if (!Array.isArray(reserve)) reasons.push('shape: payload.reserve is not an array');
  else {
    for (const entry of reserve as { sha256?: unknown; root_inclusion?: unknown }[]) {
      const problem = inclusionProblem(entry.sha256, entry.root_inclusion, root);
      if (problem) reasons.push(`reserve ${String(entry.sha256)}: ${problem}`);
    }
  }
  return { ok: reasons.length === 0, reasons };
}

/**
 * Why `proof` does not show card `sha256` under `root` (root v1, dup tree; the leaf count is the
 * signed one, never the proof's own), or null when it does.
 */
export function inclusionProblem(
  sha256: unknown,
  proof: unknown,
  root: { merkle_root: string; leaf_count: number },
): string | null {
  if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) return 'not a 64-hex card sha256';
  if (proof === null || typeof proof !== 'object') return 'no inclusion proof';
  const p = proof as Partial<RootInclusionProof>;
  if (p.leaf_count !== root.leaf_count)
    return `the proof is for ${String(p.leaf_count)} leaves, the signed root has ${root.leaf_count}`;
  if (
    !Number.isSafeInteger(p.leaf_index) ||
    !Array.isArray(p.proof) ||
    !p.proof.every((h) => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h))
  )
    return 'the proof is malformed';
  try {
    const v = verifyDupInclusion(
      leafHash(Buffer.from(sha256, 'hex')),
      p.leaf_index!,
      root.leaf_count,
      p.proof.map((h) => Buffer.from(h, 'hex')),
      Buffer.from(root.merkle_root, 'hex'),
    );
    return v.ok ? null : v.reason;
  } catch (e) {
    return `the proof is malformed: ${(e as Error).message}`;
  }
}
