/**
 * The files of a key directory and how they are written: `public-keys.json` (every public key as
 * issued, the identity root's included), `transitions.json` (every key change a publish logged),
 * `<fragment>.key` (owner-only seeds), `identity-root.key` (the root's seed, until the operator
 * moves it away). Secrets are written through a temporary name and renamed, so they appear whole
 * or not at all.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GspcError } from '../core/errors.js';
import { ROOT_KEY } from '../core/evidence/signer.js';
import type { TransitionRecord } from '../core/evidence/key-transition.js';

export const PUBLIC_FILE = 'public-keys.json';
/** The key directory's transitions (issue 30): public, copied into every release published after one. */
export const TRANSITIONS_FILE = 'transitions.json';
/** Where `gspc keygen` writes the identity root's seed; the operator moves it away (issue 36). */
export const ROOT_FILE = `${ROOT_KEY}.key`;

/** Writes a file through a temporary name in its directory, so it appears whole or not at all. */
export function writeWhole(path: string, text: string, mode: number): void {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/** An owner-only file (a seed), written whole. */
export const writeSecret = (path: string, text: string): void => writeWhole(path, text, 0o600);

export function readPublic(dir: string): Record<string, string> {
  const path = join(dir, PUBLIC_FILE);
  if (!existsSync(path)) return {};
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, string>;
  } catch {
    /* reported below */
  }
  throw new GspcError('config_invalid', `${path} is not a JSON object of public keys`);
}

/** The transitions recorded in a key directory (none before the first key change was published). */
export function readTransitions(dir: string): TransitionRecord[] {
  const path = join(dir, TRANSITIONS_FILE);
  if (!existsSync(path)) return [];
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { transitions?: unknown };
  if (!Array.isArray(doc.transitions))
    throw new GspcError('config_invalid', `${path} is not a svc.key-transitions/1 document`);
  return doc.transitions as TransitionRecord[];
}

/** The recorded identity root (JWK `x`), when it is a 32-byte key. */
export function rootOf(recorded: Readonly<Record<string, string>>): string | undefined {
  const x = recorded[ROOT_KEY];
  return typeof x === 'string' && Buffer.from(x, 'base64url').length === 32 ? x : undefined;
}

/** A seed file's 32 bytes, or why it is not one. */
export function readSeed(path: string): Buffer | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (e) {
    return `${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  const seed = Buffer.from(text, 'base64url');
  return seed.length === 32 && seed.toString('base64url') === text
    ? seed
    : `${path} does not hold a 32-byte base64url seed`;
}
