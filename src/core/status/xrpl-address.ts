/**
 * XRPL classic addresses (`r…`): base58 with the XRP Ledger's alphabet over a version byte 0x00,
 * the 20-byte account id and a 4-byte double-SHA-256 checksum. Checked so a mistyped account in
 * the configuration or a recorded snapshot is refused rather than read as "no assets".
 */
import { createHash } from 'node:crypto';

const ALPHABET = 'rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz';
const INDEX = new Map([...ALPHABET].map((c, i) => [c, BigInt(i)]));
const SHAPE = /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/;

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest();
const checksum = (payload: Uint8Array) => sha256(sha256(payload)).subarray(0, 4);

function decode(s: string): Uint8Array | null {
  let n = 0n;
  for (const c of s) {
    const d = INDEX.get(c);
    if (d === undefined) return null;
    n = n * 58n + d;
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  // Each leading alphabet zero ('r') stands for one leading zero byte.
  for (const c of s) {
    if (c !== ALPHABET[0]) break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** True when `s` is a well-formed classic address whose checksum holds. */
export function isClassicAddress(s: string): boolean {
  if (!SHAPE.test(s)) return false;
  const b = decode(s);
  if (!b || b.length !== 25 || b[0] !== 0) return false;
  return Buffer.from(checksum(b.subarray(0, 21))).equals(Buffer.from(b.subarray(21)));
}

/** The classic address of a 20-byte account id (used to write synthetic demo accounts). */
export function encodeClassicAddress(accountId: Uint8Array): string {
  if (accountId.length !== 20) throw new RangeError('an account id is 20 bytes');
  const payload = Uint8Array.from([0, ...accountId]);
  const full = Uint8Array.from([...payload, ...checksum(payload)]);
  let n = 0n;
  for (const x of full) n = (n << 8n) | BigInt(x);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)]! + out;
    n /= 58n;
  }
  for (const x of full) {
    if (x !== 0) break;
    out = ALPHABET[0] + out;
  }
  return out;
}
