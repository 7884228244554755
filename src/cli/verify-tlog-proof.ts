/**
 * `gspc verify <card>.tlog-proof --card <card.json|sha256> [--log-vkey <vkey>]... [--witness-key
 * <vkey>]... [--witness-policy <file>] [--trust-did-document <file>] [--json]`: a card's C2SP
 * tlog-proof checked offline, nothing fetched (issue 42, TP3). A file is read as a proof when its
 * name ends in `.tlog-proof` or its first line is the spec's header. The leaf comes from the card
 * (its content address recomputed from its body when a card file is given); the log's keys come
 * from the reader's own configuration: a vkey, the `log` lines of a tlog-policy, or the board
 * keys of a DID document the reader saved. A proof that brings its own key proves nothing, so
 * without one of them the command refuses to run (config_invalid, exit 2).
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { canonicalJsonStrict } from '../core/crypto/canonical-json.js';
import { OUTER_CARD_FIELDS } from '../core/evidence/card.js';
import { SIG_TYPE_COSIGNATURE_V1, SIG_TYPE_ED25519 } from '../core/evidence/note/signed-note.js';
import { parseVerifierKey } from '../core/evidence/note/verifier-key.js';
import { quorumHolds, shownName } from '../core/evidence/note/witness-policy.js';
import { GspcError } from '../core/errors.js';
import { TLOG_PROOF_HEADER } from '../core/verify/tlog-proof-parse.js';
import {
  trustedLogsOfDidDocument,
  verifyTlogProof,
  type TlogProofTrust,
  type TrustedLogKey,
  type TrustedWitness,
} from '../core/verify/tlog-proof.js';
import { nodeVerifyCrypto } from '../verify/node-crypto.js';
import { readPolicy } from './verify.js';

export interface TlogProofFlags {
  card?: string;
  logVkey: string[];
  witnessKey: string[];
  witnessPolicy?: string;
  trustDidDocument?: string;
  trustKey: string[];
}

const HEADER = Buffer.from(`${TLOG_PROOF_HEADER}\n`);

/** Whether `target` names a tlog-proof file (not a URL, a release or a data directory). */
export function isTlogProofFile(target: string): boolean {
  if (/^https?:\/\//.test(target)) return false;
  if (target.endsWith('.tlog-proof')) return true;
  try {
    return readFileSync(target).subarray(0, HEADER.length).equals(HEADER);
  } catch {
    return false;
  }
}

function read(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new GspcError('config_invalid', `${what} ${path}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
}

/** The card's sha256 and, for a card file, whether its claimed sha256 is its body's. */
function cardOf(card: string | undefined): { sha256: string; check?: { ok: boolean; detail: string } } {
  if (card === undefined)
    throw new GspcError('config_invalid', 'a tlog-proof proves a card: name it with --card <card.json | sha256>');
  if (/^[0-9a-f]{64}$/.test(card)) return { sha256: card };
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(read(card, '--card').toString('utf8')) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof GspcError) throw e;
    throw new GspcError('config_invalid', `--card ${card} is neither a 64-hex sha256 nor a card JSON file`);
  }
  if (doc === null || typeof doc !== 'object' || typeof doc.sha256 !== 'string')
    throw new GspcError('config_invalid', `--card ${card} is not a card (no sha256)`);
  const body = Object.fromEntries(
    Object.entries(doc).filter(([k]) => !(OUTER_CARD_FIELDS as readonly string[]).includes(k)),
  );
  const actual = createHash('sha256').update(canonicalJsonStrict(body), 'utf8').digest('hex');
  // The leaf is the card's own content address, whatever it claims: an edited card is not the logged one.
  return {
    sha256: actual,
    check: {
      ok: actual === doc.sha256,
      detail:
        actual === doc.sha256
          ? `the card's body hashes to its sha256 ${actual}`
          : `the card claims sha256 ${String(doc.sha256)} but its body hashes to ${actual}`,
    },
  };
}

function vkeyOf(vkey: string, type: number, flag: string) {
  const parsed = parseVerifierKey(vkey);
  if (!parsed.ok) throw new GspcError('config_invalid', `${flag} ${JSON.stringify(vkey)}: ${parsed.reason}`);
  if (parsed.key.type !== type)
    throw new GspcError(
      'config_invalid',
      `${flag} ${parsed.key.name}: ${type === SIG_TYPE_ED25519 ? 'a log key is an Ed25519 note key (type 0x01)' : 'a witness key is a cosignature/v1 key (type 0x04)'}`,
    );
  return parsed.key;
}

/** What the reader trusts, from its own flags and files only. */
export function trustOfFlags(o: TlogProofFlags, now: number): TlogProofTrust {
  if (o.trustKey.length > 0)
    throw new GspcError(
      'config_invalid',
      '--trust-key names no log origin: for a tlog-proof give --log-vkey <vkey> or --trust-did-document <file>',
    );
  const logs: TrustedLogKey[] = o.logVkey.map((v) => {
    const key = vkeyOf(v, SIG_TYPE_ED25519, '--log-vkey');
    return { origin: key.name, publicKey: key.publicKey };
  });
  const named: TrustedWitness[] = o.witnessKey.map((v) => {
    const key = vkeyOf(v, SIG_TYPE_COSIGNATURE_V1, '--witness-key');
    return { name: key.name, publicKey: key.publicKey };
  });
  const policy = o.witnessPolicy === undefined ? undefined : readPolicy(o.witnessPolicy);
  for (const l of policy?.logs ?? []) logs.push({ origin: l.key.name, publicKey: l.key.publicKey });
  if (o.trustDidDocument !== undefined) {
    let doc: unknown;
    try {
      doc = JSON.parse(read(o.trustDidDocument, '--trust-did-document').toString('utf8'));
    } catch (e) {
      if (e instanceof GspcError) throw e;
      throw new GspcError('config_invalid', `--trust-did-document ${o.trustDidDocument} is not JSON`);
    }
    const keys = trustedLogsOfDidDocument(doc);
    if (keys.length === 0)
      throw new GspcError(
        'config_invalid',
        `--trust-did-document ${o.trustDidDocument} lists no board key of a did:web`,
      );
    logs.push(...keys);
  }
  if (logs.length === 0)
    throw new GspcError(
      'config_invalid',
      "a tlog-proof is checked under the log's key as you trust it, never the proof's own: give --log-vkey <vkey>, a --witness-policy with a log line, or --trust-did-document <file>",
    );
  // A policy's witnesses are labelled by their policy names, which its quorum rule reads.
  const fromPolicy: TrustedWitness[] = [...(policy?.witnesses ?? [])].map(([name, w]) => ({
    name: w.key.name,
    publicKey: w.key.publicKey,
    label: shownName(name),
  }));
  const policyName = new Map([...(policy?.witnesses.keys() ?? [])].map((n) => [shownName(n), n]));
  return {
    logs,
    witnesses: [...named, ...fromPolicy],
    // Every --witness-key must cosign, and the policy's quorum must hold.
    quorum: (cosigned) =>
      named.every((w) => cosigned.includes(w.name)) &&
      (policy === undefined ||
        quorumHolds(
          policy,
          cosigned.flatMap((c) => policyName.get(c) ?? []),
        )),
    now,
  };
}

export async function runVerifyTlogProof(
  file: string,
  o: TlogProofFlags,
  json: boolean,
  print: (line: string) => void,
  now: () => Date,
): Promise<number> {
  // Everything the reader configured is read and refused first; the proof is read last.
  const trust = trustOfFlags(o, Math.floor(now().getTime() / 1000));
  const card = cardOf(o.card);
  const bytes = read(file, 'tlog-proof');
  const v = await verifyTlogProof(nodeVerifyCrypto, bytes, card.sha256, trust);
  const cardOk = card.check?.ok !== false;
  const valid = v.result === 'VALID' && cardOk;
  const report = {
    schema: 'svc.tlog-proof-verification/1',
    source: file,
    card: card.sha256,
    result: valid ? 'VALID' : 'INVALID',
    code: cardOk ? v.code : 'tlog_proof_card',
    checks: [...(card.check ? [{ check: 'card', ...card.check }] : []), ...v.checks],
    ...(v.claims && { claims: v.claims }),
    cosigned: v.cosigned,
    ignored: v.ignored,
  };
  if (json) print(JSON.stringify(report, null, 2));
  else {
    print(`gspc verify ${file} (C2SP tlog-proof of card ${card.sha256}, offline)`);
    for (const c of report.checks) print(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.check}: ${c.detail}`);
    if (v.ignored.length > 0) print(`  signatures by keys you did not configure, ignored: ${v.ignored.join(', ')}`);
    const failed = report.checks.find((c) => !c.ok);
    print(
      valid
        ? `VALID: entry ${v.claims!.index} of ${v.claims!.origin} at size ${v.claims!.tree_size}${v.cosigned.length > 0 ? `, cosigned by ${v.cosigned.map((c) => c.witness).join(', ')}` : ''}`
        : `INVALID (${report.code}): ${failed?.check}: ${failed?.detail}`,
    );
  }
  return valid ? 0 : 1;
}
