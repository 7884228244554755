/**
 * C2SP tlog-policy (c2sp.org/tlog-policy): the logs a reader accepts, the witnesses it knows, and
 * the quorum of cosignatures a checkpoint needs, in the reader's own file (issue 31:
 * `gspc verify --witness-policy`). Parsing refuses what the specification forbids: a name used
 * before it is defined, a name defined twice, a member listed twice or `none` as a member, a
 * threshold outside 1..n, a duplicate key (the same public key under any name), a witness key
 * that is not cosignature/v1 or a log key that is not an Ed25519 note key, control characters,
 * and anything but exactly one quorum line. Evaluation is pure: which witnesses cosigned, and
 * whether the quorum holds.
 */
import { SIG_TYPE_COSIGNATURE_V1, SIG_TYPE_ED25519, type NoteSignature } from './signed-note.js';
import { verifyCosignature } from './cosignature.js';
import { parseVerifierKey, type VerifierKey } from './verifier-key.js';

interface Group {
  k: number;
  members: string[];
}

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

export function parseWitnessPolicy(text: string): PolicyResult {
  const logs: WitnessPolicy['logs'] = [];
  const witnesses: WitnessPolicy['witnesses'] = new Map();
  const groups = new Map<string, Group>();
  const keys = new Set<string>();
  let quorum: string | undefined;
  const defined = (name: string) => witnesses.has(name) || groups.has(name);
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const at = `line ${i + 1}`;
    const fail = (why: string): PolicyResult => ({ ok: false, reason: `${at}: ${why}` });
    if (/[\x00-\x08\x0b-\x1f\x7f]/.test(raw)) return fail('a control character other than tab');
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [word, ...args] = line.split(/[ \t]+/);
    const keyOf = (vkey: string | undefined, type: number, role: string) => {
      const parsed = vkey === undefined ? undefined : parseVerifierKey(vkey);
      if (!parsed?.ok) return `${role} key: ${parsed?.reason ?? 'missing'}`;
      if (parsed.key.type !== type)
        return `${role} key ${parsed.key.name} is not ${type === SIG_TYPE_ED25519 ? 'an Ed25519 note key (type 0x01)' : 'a cosignature/v1 key (type 0x04)'}`;
      const raw32 = parsed.key.publicKey.toString('hex');
      if (keys.has(raw32)) return `${role} key ${parsed.key.name}: the same public key is listed twice`;
      keys.add(raw32);
      return parsed.key;
    };
    if (word === 'log') {
      if (args.length < 1 || args.length > 2) return fail('log <vkey> [<url>]');
      const key = keyOf(args[0], SIG_TYPE_ED25519, 'log');
      if (typeof key === 'string') return fail(key);
      logs.push({ key, ...(args[1] !== undefined && { url: args[1] }) });
    } else if (word === 'witness') {
      if (args.length < 2 || args.length > 3) return fail('witness <name> <vkey> [<url>]');
      const name = args[0]!;
      if (name === 'none' || defined(name)) return fail(`the name ${name} is already defined`);
      const key = keyOf(args[1], SIG_TYPE_COSIGNATURE_V1, 'witness');
      if (typeof key === 'string') return fail(key);
      witnesses.set(name, { key, ...(args[2] !== undefined && { url: args[2] }) });
    } else if (word === 'group') {
      const [name, threshold, ...members] = args;
      if (name === undefined || threshold === undefined || members.length === 0)
        return fail('group <name> all|any|<k> <member>...');
      if (name === 'none' || defined(name)) return fail(`the name ${name} is already defined`);
      for (const m of members) if (!defined(m)) return fail(`member ${m} is not a witness or group defined above`);
      if (new Set(members).size !== members.length) return fail('a member is listed twice');
      const k =
        threshold === 'all'
          ? members.length
          : threshold === 'any'
            ? 1
            : /^[1-9][0-9]*$/.test(threshold)
              ? Number(threshold)
              : 0;
      if (k < 1 || k > members.length)
        return fail(`threshold ${threshold}: all, any, or a number from 1 to ${members.length}`);
      groups.set(name, { k, members });
    } else if (word === 'quorum') {
      if (args.length !== 1) return fail('quorum <name>');
      if (quorum !== undefined) return fail('a second quorum line');
      if (args[0] !== 'none' && !defined(args[0]!)) return fail(`quorum ${args[0]} is not defined above`);
      quorum = args[0]!;
    } else return fail(`unknown line type ${JSON.stringify(word)}`);
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
  /** Whether the checkpoint is signed by one of the policy's logs (true when it lists none). */
  logAccepted: boolean;
}

/** Evaluates `policy` on a checkpoint's text and its signature lines (parseNote). */
export function evaluateWitnessPolicy(
  policy: WitnessPolicy,
  checkpointText: string,
  signatures: readonly NoteSignature[],
  logVerifies: (key: VerifierKey) => boolean,
): PolicyVerdict {
  const cosigned = [...policy.witnesses]
    .filter(([, w]) => signatures.some((s) => verifyCosignature(checkpointText, s, w.key).ok))
    .map(([name]) => name);
  const signed = new Set(cosigned);
  const holds = (name: string): boolean => {
    if (name === 'none') return true;
    const group = policy.groups.get(name);
    return group === undefined ? signed.has(name) : group.members.filter(holds).length >= group.k;
  };
  return {
    satisfied: holds(policy.quorum),
    cosigned,
    logAccepted: policy.logs.length === 0 || policy.logs.some((l) => logVerifies(l.key)),
  };
}
