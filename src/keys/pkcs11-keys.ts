/**
 * Keys that never touch the disk (issue 30): the service's Ed25519 keys held in a PKCS#11 token
 * (`GSPC_SIGNER=pkcs11`), found by label (`board-attestation-1`, `card-attestation-1`,
 * `card-attestation-2`), each signature made by the token with `CKM_EDDSA` over the message
 * itself. The public key is read from the token (`CKA_EC_POINT`, an OCTET STRING holding the 32
 * bytes), so the DID document names what the token signs with. Tested on SoftHSM2 from Debian
 * through `pkcs11js` (an optional dependency: a native module built at install).
 *
 * The same LoadedKeys as the key files give, so everything that signs (publish, the board
 * attestation, offers, receipts, agent cards, the corrections ledger) goes through the token. A
 * key the token does not hold is unhealthy with the reason; nothing is ever written to disk.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PublishedKey } from '../core/evidence/did.js';
import { ALL_KEYS, ROOT_KEY, type KeyFragment, type SignerState } from '../core/evidence/signer.js';
import { GspcError } from '../core/errors.js';
import type { KeyHealth, LoadedKeys } from './key-store.js';
import { readPublic, readTransitions, rootOf } from './key-files.js';
import { readPending } from './pending-change.js';

/** `GSPC_PKCS11_*`: which token, and the file its user PIN is read from. */
export interface TokenConfig {
  module: string;
  token: string;
  pinFile: string;
}

/** PKCS#11 v3.0 mechanism numbers (pkcs11js 2.1 names neither). */
const CKM_EDDSA = 0x1057;

interface Pkcs11Module {
  PKCS11: new () => Pkcs11;
  CKF_SERIAL_SESSION: number;
  CKU_USER: number;
  CKA_CLASS: number;
  CKA_LABEL: number;
  CKA_EC_POINT: number;
  CKO_PRIVATE_KEY: number;
  CKO_PUBLIC_KEY: number;
}
interface Pkcs11 {
  load(path: string): void;
  C_Initialize(): void;
  C_GetSlotList(tokenPresent: boolean): Buffer[];
  C_GetTokenInfo(slot: Buffer): { label: string };
  C_OpenSession(slot: Buffer, flags: number): Buffer;
  C_Login(session: Buffer, user: number, pin: string): void;
  C_FindObjectsInit(session: Buffer, template: { type: number; value: unknown }[]): void;
  C_FindObjects(session: Buffer, max: number): Buffer[];
  C_FindObjectsFinal(session: Buffer): void;
  C_GetAttributeValue(session: Buffer, object: Buffer, template: { type: number }[]): { value: Buffer }[];
  C_SignInit(session: Buffer, mechanism: { mechanism: number }, key: Buffer): void;
  C_Sign(session: Buffer, data: Buffer, out: Buffer): Buffer;
}

function binding(): Pkcs11Module {
  try {
    return createRequire(import.meta.url)('pkcs11js') as Pkcs11Module;
  } catch (e) {
    throw new GspcError(
      'config_invalid',
      `GSPC_SIGNER=pkcs11 needs the pkcs11js package, which did not load (${(e as Error).message.split('\n')[0]}): npm ci installs it as an optional dependency and builds it with node-gyp (a C++ compiler, make and python3)`,
    );
  }
}

/** One logged-in session per module, token and PIN file for the process: a module is initialised once. */
const sessions = new Map<string, { p: Pkcs11; m: Pkcs11Module; session: Buffer }>();

function openSession(cfg: TokenConfig): { p: Pkcs11; m: Pkcs11Module; session: Buffer } {
  const key = `${cfg.module}\u0000${cfg.token}\u0000${cfg.pinFile}`;
  const open = sessions.get(key);
  if (open) return open;
  const m = binding();
  const p = new m.PKCS11();
  try {
    p.load(cfg.module);
    if (![...sessions.keys()].some((k) => k.startsWith(`${cfg.module}\u0000`))) p.C_Initialize();
  } catch (e) {
    throw new GspcError('config_invalid', `GSPC_PKCS11_MODULE ${cfg.module}: ${(e as Error).message}`);
  }
  const slot = p.C_GetSlotList(true).find((s) => p.C_GetTokenInfo(s).label.trim() === cfg.token);
  if (slot === undefined)
    throw new GspcError('config_invalid', `GSPC_PKCS11_TOKEN: no token labelled '${cfg.token}' in ${cfg.module}`);
  const pin = readPin(cfg.pinFile);
  const session = p.C_OpenSession(slot, m.CKF_SERIAL_SESSION);
  try {
    p.C_Login(session, m.CKU_USER, pin);
  } catch (e) {
    throw new GspcError(
      'config_invalid',
      `the token '${cfg.token}' refused the PIN in ${cfg.pinFile}: ${(e as Error).message}`,
    );
  }
  const opened = { p, m, session };
  sessions.set(key, opened);
  return opened;
}

/**
 * The token's user PIN. Its file is held to the key files' rule (key-store.ts, identity-root.ts):
 * whoever can read the PIN signs as this board with the token's keys, so a file that group or
 * others may read or write is refused (decision CL3), never used.
 */
function readPin(file: string): string {
  let mode: number;
  let pin: string;
  try {
    mode = statSync(file).mode;
    pin = readFileSync(file, 'utf8').trim();
  } catch (e) {
    throw new GspcError(
      'config_invalid',
      `GSPC_PKCS11_PIN_FILE ${file}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    );
  }
  if ((mode & 0o077) !== 0)
    throw new GspcError(
      'config_invalid',
      `GSPC_PKCS11_PIN_FILE ${file} is readable or writable by group or others (mode ${(mode & 0o777).toString(8).padStart(3, '0')}): whoever reads it can sign with the token's keys. Make it the service user's alone (chmod 600 ${file}); the token was not used`,
    );
  return pin;
}

function find(o: { p: Pkcs11; m: Pkcs11Module; session: Buffer }, cls: number, label: string): Buffer | undefined {
  o.p.C_FindObjectsInit(o.session, [
    { type: o.m.CKA_CLASS, value: cls },
    { type: o.m.CKA_LABEL, value: label },
  ]);
  const found = o.p.C_FindObjects(o.session, 2);
  o.p.C_FindObjectsFinal(o.session);
  return found.length === 1 ? found[0] : undefined;
}

/** The 32 key bytes of a DER OCTET STRING (0x04 0x20 …), or of a raw point. */
function rawPoint(point: Buffer): Buffer | undefined {
  if (point.length === 34 && point[0] === 0x04 && point[1] === 0x20) return point.subarray(2);
  return point.length === 32 ? point : undefined;
}

/**
 * The service's keys as the token holds them. `keyDir` still holds the public transitions file
 * and the identity root's public key: the root is a file, never on the token (decision K8; it
 * signs only key changes, made away from the serving machine). `next`: with the key directory's
 * pending change applied (a root rotation or a migration; the token's keys are not rotated here).
 */
export function loadTokenKeys(
  cfg: TokenConfig,
  did: string,
  keyDir: string,
  opts: { next?: boolean } = {},
): LoadedKeys {
  const o = openSession(cfg);
  const published: PublishedKey[] = [];
  const health: KeyHealth[] = [];
  const states = new Map<KeyFragment, SignerState>();
  for (const fragment of ALL_KEYS) {
    const kid = `${did}#${fragment}`;
    const priv = find(o, o.m.CKO_PRIVATE_KEY, fragment);
    const pub = find(o, o.m.CKO_PUBLIC_KEY, fragment);
    const raw = pub && rawPoint(o.p.C_GetAttributeValue(o.session, pub, [{ type: o.m.CKA_EC_POINT }])[0]!.value);
    if (raw) published.push({ fragment, publicKey: Buffer.from(raw) });
    const reason =
      priv === undefined || pub === undefined
        ? `the token '${cfg.token}' holds no single key pair labelled ${fragment}`
        : raw === undefined
          ? `the token's public key ${fragment} is not a 32-byte Ed25519 point`
          : undefined;
    if (reason !== undefined) {
      health.push({ fragment, healthy: false, reason });
      states.set(fragment, { healthy: false, kid, reason: `key ${fragment} is unhealthy: ${reason}` });
      continue;
    }
    health.push({ fragment, healthy: true });
    states.set(fragment, {
      healthy: true,
      signer: {
        kid,
        publicKey: Buffer.from(raw!),
        sign: (message) => {
          o.p.C_SignInit(o.session, { mechanism: CKM_EDDSA }, priv!);
          return Buffer.from(o.p.C_Sign(o.session, Buffer.from(message), Buffer.alloc(64)));
        },
      },
    });
  }
  const pending = opts.next === true ? readPending(keyDir) : undefined;
  const root = rootOf(pending?.public_keys ?? readPublic(keyDir));
  if (root !== undefined) published.push({ fragment: ROOT_KEY, publicKey: Buffer.from(root, 'base64url') });
  return {
    did,
    published,
    health,
    transitions: (pending?.transitions ?? readTransitions(keyDir)).filter((t) => t.did === did),
    ...(root !== undefined && { root }),
    pending: pending !== undefined,
    state: (f) => states.get(f)!,
  };
}
