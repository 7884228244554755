/**
 * C2SP tlog-policy (c2sp.org/tlog-policy): the logs a reader accepts, the witnesses it knows, and
 * the quorum of cosignatures a checkpoint needs, in the reader's own file (issue 31:
 * `gspc verify --witness-policy`). The file is read as the specification says, as octets: lines
 * end at 0x0A, items are separated by runs of space (0x20) and tab (0x09) only (no other
 * character is whitespace, U+00A0 included: it is part of the item it touches), and names are
 * opaque octet strings. Parsing refuses what the specification forbids: a control character
 * other than tab, a name used before it is defined, a name defined twice or `none` defined, a
 * name listed as a group member more than once in the whole policy (in one group or in two) or
 * `none` as a member, a threshold that is not all, any or a decimal k with 1 ≤ k ≤ n, two logs
 * or two witnesses with the same public key (under any name), a witness key that is not
 * cosignature/v1 or a log key that is not an Ed25519 note key, and anything but exactly one
 * quorum line. Evaluation is pure: which witnesses cosigned (a cosignature dated more than
 * COSIGNATURE_MAX_FUTURE_SECONDS after the caller's clock does not count), and whether the
 * quorum holds.
 */
import { SIG_TYPE_COSIGNATURE_V1, SIG_TYPE_ED25519, type NoteSignature } from './signed-note.js';
import { COSIGNATURE_MAX_FUTURE_SECONDS, verifyCosignature } from './cosignature.js';
import { parseVerifierKey, type VerifierKey } from './verifier-key.js';

interface Group {
  k: number;
  members: string[];
}

/**
 * A parsed policy. Names (the keys of `witnesses` and `groups`, group members, `quorum`) are the
 * octets of the file, one character per octet (latin1), so that two names are the same exactly
 * when their octets are; `shownName` gives a name as UTF-8 text for messages.
 */
export interface WitnessPolicy {
  logs: { key: VerifierKey; url?: string }[];
  witnesses: Map<string, { key: VerifierKey; url?: string }>;
  groups: Map<string, Group>;
  /** A witness, a group, or `none`. */
  quorum: string;
}

export type PolicyResult = { ok: true; policy: WitnessPolicy } | { ok: false; reason: string };

/** The implementation limits the specification recommends supporting at least. */
const LIMIT = 32;

/** A policy name (its octets, one character each) as UTF-8 text, for messages. */
export function shownName(name: string): string {
  return Buffer.from(name, 'latin1').toString('utf8');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** An item (octets, one character each) as UTF-8 text, or why it is not. */
function text(item: string, role: string): string | { why: string } {
  try {
    return utf8.decode(Buffer.from(item, 'latin1'));
  } catch {
    return { why: `${role} is not valid UTF-8` };
  }
}

/**
 * For a refused line holding a Unicode space other than space and tab (U+00A0, U+3000, a byte
 * order mark...): which one, since it reads as a separator but is part of an item.
 */
function spaceHint(line: string): string {
  const other = /[^\S \t]/u.exec(shownName(line));
  if (other === null) return '';
  const cp = other[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  return ` (the line holds U+${cp}, which is not whitespace in a tlog-policy: only space and tab separate items)`;
}

/** Control octets the specification forbids: everything below 0x20 but tab and newline, and DEL. */
const FORBIDDEN_OCTET = /[\x00-\x08\x0b-\x1f\x7f]/;

/**
 * Parses a policy file. Give it the file's bytes (a string is taken as its UTF-8 encoding): the
 * specification defines the file as octets, so names that are not valid UTF-8 stay distinct.
 */
export function parseWitnessPolicy(file: string | Uint8Array): PolicyResult {
  const bytes = typeof file === 'string' ? Buffer.from(file, 'utf8') : Buffer.from(file);
  const logs: WitnessPolicy['logs'] = [];
  const witnesses: WitnessPolicy['witnesses'] = new Map();
  const groups = new Map<string, Group>();
  /** Each public key (hex) already listed: a log's line number, a witness's name. */
  const logKeys = new Map<string, number>();
  const witnessKeys = new Map<string, string>();
  /** Each name listed as a group member so far, with the group that lists it. */
  const memberOf = new Map<string, string>();
  let quorum: string | undefined;
  const defined = (name: string) => witnesses.has(name) || groups.has(name);
  // latin1: one character per octet, so the file's octets are kept exactly (0x80-0xFF opaque).
  const lines = bytes.toString('latin1').split('\n');
  for (const [i, raw] of lines.entries()) {
    const at = `line ${i + 1}`;
    const fail = (why: string): PolicyResult => ({ ok: false, reason: `${at}: ${why}${spaceHint(raw)}` });
    if (FORBIDDEN_OCTET.test(raw)) return fail('a control character other than tab');
    // Only space and tab separate items and may lead or trail (String.prototype.trim would also
    // take U+00A0 and the other Unicode spaces).
    const items = raw.split(/[ \t]+/).filter((item) => item !== '');
    if (items.length === 0 || items[0]!.startsWith('#')) continue;
    const [word, ...args] = items as [string, ...string[]];
    const keyOf = (vkey: string | undefined, type: number, role: 'log' | 'witness', name?: string) => {
      const decoded = vkey === undefined ? undefined : text(vkey, `the ${role} key`);
      if (typeof decoded === 'object') return decoded.why;
      const parsed = decoded === undefined ? undefined : parseVerifierKey(decoded);
      if (!parsed?.ok) return `${role} key: ${parsed?.reason ?? 'missing'}`;
      if (parsed.key.type !== type)
        return `${role} key ${parsed.key.name} is not ${type === SIG_TYPE_ED25519 ? 'an Ed25519 note key (type 0x01)' : 'a cosignature/v1 key (type 0x04)'}`;
      const raw32 = parsed.key.publicKey.toString('hex');
      if (role === 'log') {
        const earlier = logKeys.get(raw32);
        if (earlier !== undefined)
          return `log key ${parsed.key.name}: the same public key as the log on line ${earlier} (duplicate logs are not allowed)`;
        logKeys.set(raw32, i + 1);
      } else {
        const earlier = witnessKeys.get(raw32);
        if (earlier !== undefined)
          return `witness key ${parsed.key.name}: the same public key as witness ${shownName(earlier)} (duplicate witnesses are not allowed)`;
        witnessKeys.set(raw32, name!);
      }
      return parsed.key;
    };
    const urlOf = (item: string | undefined) => (item === undefined ? {} : { url: shownName(item) });
    if (word === 'log') {
      if (args.length < 1 || args.length > 2) return fail('log <vkey> [<url>]');
      const key = keyOf(args[0], SIG_TYPE_ED25519, 'log');
      if (typeof key === 'string') return fail(key);
      logs.push({ key, ...urlOf(args[1]) });
    } else if (word === 'witness') {
      if (args.length < 2 || args.length > 3) return fail('witness <name> <vkey> [<url>]');
      const name = args[0]!;
      if (name === 'none') return fail('the name none is predefined');
      if (defined(name)) return fail(`the name ${shownName(name)} is already defined`);
      const key = keyOf(args[1], SIG_TYPE_COSIGNATURE_V1, 'witness', name);
      if (typeof key === 'string') return fail(key);
      witnesses.set(name, { key, ...urlOf(args[2]) });
    } else if (word === 'group') {
      const [name, threshold, ...members] = args;
      if (name === undefined || threshold === undefined || members.length === 0)
        return fail('group <name> all|any|<k> <member>...');
      if (name === 'none') return fail('the name none is predefined');
      if (defined(name)) return fail(`the name ${shownName(name)} is already defined`);
      for (const m of members) {
        if (m === 'none') return fail('member none is not allowed: the predefined name none cannot be a group member');
        if (!defined(m)) return fail(`member ${shownName(m)} is not a witness or group defined above`);
        const listed = memberOf.get(m);
        if (listed !== undefined)
          return fail(
            `member ${shownName(m)} is already a member of group ${shownName(listed)}: each name can be listed as a group member at most once`,
          );
        memberOf.set(m, name);
      }
      // "written in decimal": ASCII digits only (leading zeros are still decimal); 1 ≤ k ≤ n.
      const k =
        threshold === 'all'
          ? members.length
          : threshold === 'any'
            ? 1
            : /^[0-9]+$/.test(threshold)
              ? Number(threshold)
              : 0;
      if (k < 1 || k > members.length)
        return fail(`threshold ${shownName(threshold)}: all, any, or a number from 1 to ${members.length}`);
      groups.set(name, { k, members });
    } else if (word === 'quorum') {
      if (args.length !== 1) return fail('quorum <name>');
      if (quorum !== undefined) return fail('a second quorum line');
      if (args[0] !== 'none' && !defined(args[0]!)) return fail(`quorum ${shownName(args[0]!)} is not defined above`);
      quorum = args[0]!;
    } else return fail(`unknown line type ${JSON.stringify(shownName(word))}`);
  }
  if (quorum === undefined)
    return { ok: false, reason: 'no quorum line (write quorum none to require no cosignature)' };
  if (logs.length > LIMIT || witnesses.size > LIMIT || groups.size > LIMIT)
    return { ok: false, reason: `more than ${LIMIT} logs, witnesses or groups` };
  return { ok: true, policy: { logs, witnesses, groups, quorum } };
}

export interface PolicyVerdict {
  satisfied: boolean;
  /** The policy's witnesses whose cosignature on the checkpoint verifies, in policy order. */
  cosigned: string[];
  /**
   * The policy's witnesses that signed under their name and key ID but whose lines do not count,
   * and why (a cosignature of another checkpoint, or one dated in the future), in policy order.
   */
  refused: { witness: string; reason: string }[];
  /** Whether the checkpoint is signed by one of the policy's logs (true when it lists none). */
  logAccepted: boolean;
}

/** A POSIX time as ISO 8601 to the second, or the number when it is beyond what a Date holds. */
function isoSeconds(t: number): string {
  return t * 1000 <= 8.64e15 ? new Date(t * 1000).toISOString().replace('.000Z', 'Z') : `${t} (POSIX seconds)`;
}

/**
 * Evaluates `policy` on a checkpoint's text and its signature lines (parseNote), at `now` (POSIX
 * seconds, the caller's clock): a cosignature counts when it verifies and its timestamp is at most
 * COSIGNATURE_MAX_FUTURE_SECONDS after `now`.
 */
export function evaluateWitnessPolicy(
  policy: WitnessPolicy,
  checkpointText: string,
  signatures: readonly NoteSignature[],
  logVerifies: (key: VerifierKey) => boolean,
  now: number,
): PolicyVerdict {
  const notAfter = now + COSIGNATURE_MAX_FUTURE_SECONDS;
  const cosigned: string[] = [];
  const refused: PolicyVerdict['refused'] = [];
  for (const [name, w] of policy.witnesses) {
    const reasons = new Set<string>();
    let counts = false;
    for (const s of signatures) {
      if (s.name !== w.key.name || s.keyId !== w.key.keyId) continue;
      const v = verifyCosignature(checkpointText, s, w.key);
      if (!v.ok) reasons.add(`its cosignature does not verify over this checkpoint (${v.reason})`);
      else if (v.timestamp > notAfter)
        reasons.add(
          `cosignature timestamp ${isoSeconds(v.timestamp)} is more than ${COSIGNATURE_MAX_FUTURE_SECONDS} s in the future (the clock here reads ${isoSeconds(now)})`,
        );
      else counts = true;
    }
    if (counts) cosigned.push(name);
    else if (reasons.size > 0) refused.push({ witness: name, reason: [...reasons].join('; ') });
  }
  return {
    satisfied: quorumHolds(policy, cosigned),
    cosigned,
    refused,
    logAccepted: policy.logs.length === 0 || policy.logs.some((l) => logVerifies(l.key)),
  };
}

/** Whether the policy's quorum holds when exactly the witnesses named in `cosigned` (policy names) cosigned. */
export function quorumHolds(policy: WitnessPolicy, cosigned: readonly string[]): boolean {
  const signed = new Set(cosigned);
  const holds = (name: string): boolean => {
    if (name === 'none') return true;
    const group = policy.groups.get(name);
    return group === undefined ? signed.has(name) : group.members.filter(holds).length >= group.k;
  };
  return holds(policy.quorum);
}
