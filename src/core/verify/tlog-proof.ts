/**
 * C2SP tlog-proof@v1 (c2sp.org/tlog-proof), the reading side, browser-safe: the offline check of
 * a card's proof of logging, with no network (tlog-proof-parse.ts reads the text strictly). The spec's four steps, in
 * order: the leaf is computed from the card (SHA-256(0x00 ‖ card sha256 bytes)), never read from
 * the proof; the checkpoint's origin must be a log the reader trusts and its note must carry a
 * verifying signature by a key the reader configured for that origin (a proof that brings its
 * own key proves nothing: an impostor log signs anything under its own key); the cosignatures of
 * the witnesses the reader knows are checked and counted against the reader's quorum; the
 * inclusion path must lead from the leaf at `index` to the checkpoint's root. Every failure is
 * a check with a stable code (`TlogProofCode`), never an exception.
 */
import { bytesToBase64url, bytesToHex, concat, utf8, type VerifyCrypto } from '../crypto/verify-crypto.js';
import { BOARD_KEY } from '../evidence/signer.js';
import { keysOfDidDocument, revocationsOfDidDocument } from './card-verifier.js';
import { revocationOf } from './revocation.js';
import { parseTlogProof, type NoteSignatureLine } from './tlog-proof-parse.js';

/** Seconds a cosignature may be dated after the reader's clock and still count (decision W5). */
const MAX_FUTURE_SECONDS = 300;

export type TlogProofCode =
  | 'tlog_proof_malformed'
  | 'tlog_proof_unknown_log'
  | 'tlog_proof_log_signature'
  | 'tlog_proof_cosignature'
  | 'tlog_proof_quorum'
  | 'tlog_proof_not_included';

/** A log the reader trusts: its origin (the key name of its note signatures) and Ed25519 key. */
export interface TrustedLogKey {
  origin: string;
  publicKey: Uint8Array;
  /**
   * A revoked key (its holder may be a thief): it counts only for the one checkpoint its
   * revocation trusts, of `trusted_size` entries with root `trusted_root` (hex).
   */
  revoked?: { trusted_size: number; trusted_root?: string };
}

/** A witness the reader knows: its key name and Ed25519 key (cosignature/v1, type 0x04). */
export interface TrustedWitness {
  name: string;
  publicKey: Uint8Array;
  /** How the reader names it (a tlog-policy name); the key name when absent. */
  label?: string;
}

export interface TlogProofTrust {
  /** Taken from the reader's own configuration, never from the proof or the server it came from. */
  logs: readonly TrustedLogKey[];
  witnesses?: readonly TrustedWitness[];
  /** How many of `witnesses` must cosign (default: all), or a rule over the labels that did. */
  quorum?: number | ((cosigned: readonly string[]) => boolean);
  /** The reader's clock (POSIX seconds): a cosignature dated more than 300 s later does not count. */
  now?: number;
}

export interface TlogProofCheck {
  check: 'format' | 'log_signature' | 'cosignatures' | 'inclusion';
  ok: boolean;
  detail: string;
  code?: TlogProofCode;
}

export interface TlogProofVerdict {
  result: 'VALID' | 'INVALID';
  /** The first failed check's code, null when VALID. */
  code: TlogProofCode | null;
  checks: TlogProofCheck[];
  /** The proof's claims, when it parsed (true only when VALID). */
  claims?: { origin: string; tree_size: number; root_hash: string; index: number; extra: boolean };
  /** Witnesses whose cosignature counts, with its timestamp. */
  cosigned: { witness: string; timestamp: number }[];
  /** Signature lines by keys the reader did not configure (ignored, as the signed-note spec says). */
  ignored: string[];
}

async function keyId(crypto: VerifyCrypto, name: string, type: number, key: Uint8Array): Promise<string> {
  return bytesToHex((await crypto.sha256(concat(utf8(name), Uint8Array.of(0x0a, type), key))).subarray(0, 4));
}

/**
 * Checks `input` as the tlog-proof of the card whose content address is `cardSha256` (64 hex,
 * computed by the caller from the card), under `trust`. VALID only when every check passes.
 */
export async function verifyTlogProof(
  crypto: VerifyCrypto,
  input: string | Uint8Array,
  cardSha256: string,
  trust: TlogProofTrust,
): Promise<TlogProofVerdict> {
  const checks: TlogProofCheck[] = [];
  const add = (check: TlogProofCheck['check'], ok: boolean, detail: string, code: TlogProofCode) =>
    checks.push({ check, ok, detail, ...(!ok && { code }) });
  const cosigned: TlogProofVerdict['cosigned'] = [];
  const ignored: string[] = [];
  const done = (claims?: TlogProofVerdict['claims']): TlogProofVerdict => {
    const failed = checks.find((c) => !c.ok);
    return {
      result: failed ? 'INVALID' : 'VALID',
      code: failed?.code ?? null,
      checks,
      ...(claims && { claims }),
      cosigned,
      ignored,
    };
  };
  const parsed = parseTlogProof(input);
  if (!/^[0-9a-f]{64}$/.test(cardSha256)) add('format', false, 'the card sha256 is not 64 hex', 'tlog_proof_malformed');
  if (!parsed.ok) add('format', false, parsed.reason, 'tlog_proof_malformed');
  if (!parsed.ok || checks.length > 0) return done();
  const p = parsed.proof;
  add(
    'format',
    true,
    `c2sp.org/tlog-proof@v1: index ${p.index}, ${p.path.length} path hashes, checkpoint of ${p.origin} at size ${p.size}${p.extra ? ', an extra line (not authenticated, not used)' : ''}`,
    'tlog_proof_malformed',
  );
  const textBytes = utf8(p.text);
  const used = new Set<NoteSignatureLine>();

  // Step 2: the origin is a log the reader trusts, and a key configured for it signed the note.
  const logKeys = trust.logs.filter((l) => l.origin === p.origin);
  if (logKeys.length === 0)
    add(
      'log_signature',
      false,
      `the checkpoint's origin ${JSON.stringify(p.origin)} is not a log you trust (${trust.logs.map((l) => l.origin).join(', ') || 'none configured'})`,
      'tlog_proof_unknown_log',
    );
  else {
    let verified = false;
    let bad = false;
    let revoked = false;
    for (const key of logKeys) {
      const id = await keyId(crypto, key.origin, 0x01, key.publicKey);
      for (const sig of p.signatures.filter((x) => x.name === key.origin && x.keyId === id)) {
        used.add(sig);
        if (!(sig.signature.length === 64 && (await crypto.ed25519Verify(key.publicKey, textBytes, sig.signature))))
          bad = true;
        else if (
          key.revoked === undefined ||
          (key.revoked.trusted_size === p.size && key.revoked.trusted_root === bytesToHex(p.root))
        )
          verified = true;
        else revoked = true;
      }
    }
    add(
      'log_signature',
      verified && !bad,
      bad
        ? `a signature by a trusted key of ${p.origin} does not verify over the checkpoint`
        : !verified && revoked
          ? `the checkpoint is signed only by a revoked key of ${p.origin}, and is not the one checkpoint its revocation trusts`
          : verified
            ? `the checkpoint is signed by a trusted key of ${p.origin}`
            : `no signature by a trusted key of ${p.origin} (the proof's own signer is not one: its key proves nothing)`,
      'tlog_proof_log_signature',
    );
  }

  // Step 3: the known witnesses' cosignatures, against the reader's quorum.
  const witnesses = trust.witnesses ?? [];
  const notAfter = trust.now === undefined ? undefined : trust.now + MAX_FUTURE_SECONDS;
  const problems: string[] = [];
  for (const w of witnesses) {
    const id = await keyId(crypto, w.name, 0x04, w.publicKey);
    let best: number | undefined;
    for (const sig of p.signatures.filter((x) => x.name === w.name && x.keyId === id)) {
      used.add(sig);
      const ts = cosignatureTime(sig.signature);
      const message = ts === undefined ? undefined : concat(utf8(`cosignature/v1\ntime ${ts}\n`), textBytes);
      if (ts === undefined || !(await crypto.ed25519Verify(w.publicKey, message!, sig.signature.subarray(8))))
        problems.push(`the cosignature by ${w.label ?? w.name} does not verify over this checkpoint`);
      else if (notAfter !== undefined && ts > notAfter)
        problems.push(`the cosignature by ${w.label ?? w.name} is dated ${ts}, after the clock here allows`);
      else best = Math.max(best ?? 0, ts);
    }
    if (best !== undefined) cosigned.push({ witness: w.label ?? w.name, timestamp: best });
  }
  for (const sig of p.signatures) if (!used.has(sig)) ignored.push(`${sig.name}+${sig.keyId}`);
  const names = cosigned.map((c) => c.witness);
  const quorum = trust.quorum ?? witnesses.length;
  const holds = typeof quorum === 'function' ? quorum(names) : names.length >= quorum;
  const bad = problems.some((x) => x.includes('does not verify'));
  add(
    'cosignatures',
    !bad && holds,
    problems.length > 0 && (bad || !holds)
      ? problems.join('; ')
      : witnesses.length === 0
        ? `no witness keys given: ${ignored.length} signature line(s) by other keys not checked`
        : holds
          ? `cosigned by ${names.join(', ') || 'none'} (the quorum holds)`
          : `cosigned by ${names.join(', ') || 'none of the witnesses you know'}: the quorum does not hold`,
    bad ? 'tlog_proof_cosignature' : 'tlog_proof_quorum',
  );

  // Steps 1 and 4: the leaf from the card, up the path to the checkpoint's root.
  const leaf = await crypto.sha256(concat(Uint8Array.of(0), hexBytes(cardSha256)));
  const walked = await rootFromPath(crypto, leaf, p.index, p.size, p.path);
  const included = typeof walked !== 'string' && bytesToHex(walked) === bytesToHex(p.root);
  add(
    'inclusion',
    included,
    included
      ? `the card is entry ${p.index} of ${p.origin} at size ${p.size}`
      : typeof walked === 'string'
        ? walked
        : `the path from this card's leaf at index ${p.index} does not lead to the checkpoint's root`,
    'tlog_proof_not_included',
  );
  return done({
    origin: p.origin,
    tree_size: p.size,
    root_hash: bytesToHex(p.root),
    index: p.index,
    extra: p.extra !== null,
  });
}

/** A cosignature/v1 signature's timestamp (72 bytes: u64 ≤ 2^63 − 1, then Ed25519), or undefined. */
function cosignatureTime(sig: Uint8Array): number | undefined {
  if (sig.length !== 72) return undefined;
  const ts = new DataView(sig.buffer, sig.byteOffset, 8).getBigUint64(0);
  return ts > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(ts);
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from({ length: hex.length / 2 }, (_, i) => Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16));
}

/** RFC 9162 §2.1.3.2 from the leaf hash: the root the path gives, or why the path cannot be one. */
async function rootFromPath(
  crypto: VerifyCrypto,
  leaf: Uint8Array,
  index: number,
  size: number,
  path: readonly Uint8Array[],
): Promise<Uint8Array | string> {
  if (index >= size) return `index ${index} is not below the checkpoint's size ${size}`;
  // Arithmetic, not bit operators: indexes above 2^31 must stay exact.
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const h of path) {
    if (sn === 0) return `the path is longer than the one of index ${index} in a tree of ${size}`;
    if (fn % 2 === 1 || fn === sn) {
      r = await crypto.sha256(concat(Uint8Array.of(1), h, r));
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else r = await crypto.sha256(concat(Uint8Array.of(1), r, h));
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) return `the path is shorter than the one of index ${index} in a tree of ${size}`;
  return r;
}

/**
 * The log keys a DID document vouches for, under the origin its did:web names (card-log.ts
 * `logOrigin`): its board key, and a revoked key only for the checkpoint its revocation trusts. A
 * retired (rotated, not revoked) key is not one (review R3-3): an offline proof does not say where
 * the rotation sits in the log, so a retired key would sign a tree of any size under the origin's
 * name, where `gspc verify <url>` and the monitor accept it only below its rotation. A proof
 * signed before a rotation is fetched again: the log serves each card's proof over its current
 * checkpoint, signed by the current key. Give it a DID document from a trusted source (the DID's
 * host, anchored, or the reader's own copy), never one that came with the proof.
 */
export function trustedLogsOfDidDocument(doc: unknown): TrustedLogKey[] {
  const did = (doc as { id?: unknown } | null)?.id;
  if (typeof did !== 'string' || !did.startsWith('did:web:')) return [];
  const origin = `${did.slice('did:web:'.length).replace('%3A', ':')}/log`;
  const revocations = revocationsOfDidDocument(doc);
  const board = `${did}#${BOARD_KEY}`;
  return [...keysOfDidDocument(doc)].flatMap(([kid, publicKey]) => {
    if (kid !== board && !(kid.startsWith(`${board}~`) && /^\d+$/.test(kid.slice(board.length + 1)))) return [];
    const r = revocationOf(revocations, bytesToBase64url(publicKey));
    if (kid !== board && r === undefined) return [];
    return [
      {
        origin,
        publicKey,
        ...(r && {
          revoked: { trusted_size: r.trusted_size, ...(r.trusted_root && { trusted_root: r.trusted_root }) },
        }),
      },
    ];
  });
}
