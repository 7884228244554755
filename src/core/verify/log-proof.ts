/**
 * Browser-safe checks of the card log: the board key's Ed25519 signature on the C2SP checkpoint
 * note (key name = origin, key ID = SHA-256(name ‖ 0x0A ‖ 0x01 ‖ key)[:4]) and an RFC 9162
 * inclusion proof under the checkpoint's root. Async over an injected SHA-256 and Ed25519;
 * src/core/evidence/note and merkle are the Node-side twins, and tests check they agree.
 */
import { bytesToHex, concat, hexToBytes, utf8, type VerifyCrypto } from '../crypto/verify-crypto.js';

export type CheckpointVerdict =
  | { ok: true; origin: string; size: number; rootHex: string }
  | { ok: false; detail: string };

const SIG_LINE = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/;

function base64ToBytes(b64: string): Uint8Array | undefined {
  try {
    const bin = atob(b64);
    if (btoa(bin) !== b64) return undefined;
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Opens the log's checkpoint note with the board key: signature, origin, size and root. */
export async function verifyCheckpointNote(
  crypto: VerifyCrypto,
  note: string,
  origin: string,
  publicKey: Uint8Array,
): Promise<CheckpointVerdict> {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return { ok: false, detail: 'the checkpoint is not a signed note' };
  const text = note.slice(0, split + 1);
  const [cpOrigin, sizeLine, rootLine] = text.split('\n');
  if (cpOrigin !== origin)
    return { ok: false, detail: `checkpoint origin ${JSON.stringify(cpOrigin)} is not ${JSON.stringify(origin)}` };
  const root = rootLine === undefined ? undefined : base64ToBytes(rootLine);
  if (
    !/^(0|[1-9][0-9]*)$/.test(sizeLine ?? '') ||
    !Number.isSafeInteger(Number(sizeLine)) ||
    !root ||
    root.length !== 32
  )
    return { ok: false, detail: 'the checkpoint text is malformed' };
  const id = (await crypto.sha256(concat(utf8(origin), new Uint8Array([0x0a, 0x01]), publicKey))).subarray(0, 4);
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const m = SIG_LINE.exec(line);
    const raw = m && m[1] === origin ? base64ToBytes(m[2]!) : undefined;
    if (!raw || raw.length !== 68 || bytesToHex(raw.subarray(0, 4)) !== bytesToHex(id)) continue;
    if (await crypto.ed25519Verify(publicKey, utf8(text), raw.subarray(4)))
      return { ok: true, origin, size: Number(sizeLine), rootHex: bytesToHex(root) };
    return { ok: false, detail: 'bad signature: the checkpoint does not verify under the board key' };
  }
  return { ok: false, detail: 'no signature by the board key on the checkpoint' };
}

/** RFC 9162 §2.1.3.2 inclusion verification of a card (leaf = H(0x00 ‖ card sha256 bytes)). */
export async function verifyLogInclusion(
  crypto: VerifyCrypto,
  cardSha256: string,
  index: number,
  treeSize: number,
  proofHex: readonly string[],
  rootHex: string,
): Promise<boolean> {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(treeSize) || index < 0 || index >= treeSize) return false;
  const leaf = hexToBytes(cardSha256);
  const proof = proofHex.map(hexToBytes);
  if (!leaf || leaf.length !== 32 || proof.some((p) => !p || p.length !== 32)) return false;
  let r = await crypto.sha256(concat(new Uint8Array([0]), leaf));
  // Arithmetic, not bit operators: indexes above 2^31 must stay exact.
  let fn = index;
  let sn = treeSize - 1;
  for (const p of proof as Uint8Array[]) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = await crypto.sha256(concat(new Uint8Array([1]), p, r));
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn /= 2;
          sn = Math.floor(sn / 2);
        }
    } else {
      r = await crypto.sha256(concat(new Uint8Array([1]), r, p));
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && bytesToHex(r) === rootHex;
}

/**
 * The card log's checkpoint check that `gspc verify` and the in-browser verifier both report as
 * `log_checkpoint`: the note is signed by the board key and names exactly the size and root
 * recomputed from every entry. Returns whether it holds; the outcome is added with its reason.
 */
export async function checkLogCheckpoint(
  crypto: VerifyCrypto,
  note: string | undefined,
  origin: string,
  boardKey: Uint8Array | undefined,
  size: number,
  rootHex: string,
  add: (check: string, ok: boolean, detail: string) => unknown,
): Promise<boolean> {
  if (note === undefined) {
    add('log_checkpoint', false, 'no /log/checkpoint (the log is unsigned)');
    return false;
  }
  if (!boardKey) {
    add('log_checkpoint', false, 'no board key in the DID document to check the checkpoint with');
    return false;
  }
  const opened = await verifyCheckpointNote(crypto, note, origin, boardKey);
  const valid = opened.ok && opened.size === size && opened.rootHex === rootHex;
  add(
    'log_checkpoint',
    valid,
    !opened.ok
      ? opened.detail
      : valid
        ? `checkpoint signed by the board key; size ${size} and root recompute from every entry`
        : `the signed checkpoint says size ${opened.size} root ${opened.rootHex}; the entries give size ${size} root ${rootHex}`,
  );
  return valid;
}
