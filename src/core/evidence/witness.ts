/**
 * The root witness record (`/interop/root-witness-latest.json`): binds the exact root bytes
 * (SHA-256 and length), the Merkle root, the leaf count and the as-of, with one independent
 * state per witness. A state is NOT_YET until the operator records evidence (`gspc witness`);
 * a timestamp proof covers the root bytes only, not every cited card.
 */
import { createHash } from 'node:crypto';
import { checkLogCosignatures, type LogWitnessing } from './log-witness.js';
import { COSIGNATURE_MAX_FUTURE_SECONDS } from './note/cosignature.js';

export const WITNESS_KINDS = ['transparency-log', 'timestamp-proof', 'attestation-service', 'ledger-memo'] as const;
export type WitnessKind = (typeof WITNESS_KINDS)[number];
export type WitnessState = 'WITNESSED' | 'STAMPED_PENDING_BITCOIN' | 'NOT_YET';

export interface WitnessEvidence {
  kind: WitnessKind;
  state: WitnessState;
  evidence_sha256: string;
  evidence_bytes: number;
  note: string;
  /** For `transparency-log`: the log checkpoint cosigned, the cosignature lines and who signed. */
  log?: LogWitnessing;
}

/** What evidence is checked against: the root bytes' SHA-256, the log checkpoint, witness keys, the clock. */
export interface WitnessSubject {
  rootSha256: string;
  /** The release's signed log checkpoint note (absent when it is unsigned). */
  logCheckpoint?: string;
  /** C2SP vkeys of the transparency-log witnesses whose cosignatures are recorded. */
  witnessKeys?: readonly string[];
  /** POSIX seconds now: cosignatures dated later (beyond a 5-minute skew) are refused. */
  now: number;
  /** The evidence already recorded for this kind and root (cosignatures are merged). */
  kept?: WitnessEvidence;
}

/**
 * What binds a record to the exact bytes of `/root.json`: their SHA-256 and length, and the
 * root's merkle_root, leaf count and as-of. The witness record and the root pointer both carry
 * it, in this order, and `gspc verify` checks it on both.
 */
export function rootBinding(rootBytes: Buffer, root: { merkle_root: string; leaf_count: number; as_of: string }) {
  return {
    root_url: '/root.json',
    root_sha256: createHash('sha256').update(rootBytes).digest('hex'),
    root_bytes: rootBytes.length,
    merkle_root: root.merkle_root,
    leaf_count: root.leaf_count,
    as_of: root.as_of,
  };
}

export function witnessRecord(
  rootBytes: Buffer,
  root: { merkle_root: string; leaf_count: number; as_of: string },
  recorded: readonly WitnessEvidence[],
) {
  const byKind = new Map(recorded.map((r) => [r.kind, r]));
  return {
    schema: 'svc.root-witness/1',
    ...rootBinding(rootBytes, root),
    witnesses: WITNESS_KINDS.map((kind) => {
      const r = byKind.get(kind);
      return r
        ? {
            witness: kind,
            state: r.state,
            evidence_sha256: r.evidence_sha256,
            evidence_bytes: r.evidence_bytes,
            note: r.note,
            ...(r.log && {
              checkpoint: r.log.checkpoint,
              checkpoint_url: '/log/checkpoint',
              cosigners: r.log.cosigners,
            }),
          }
        : {
            witness: kind,
            state: 'NOT_YET' as WitnessState,
            evidence_sha256: null,
            evidence_bytes: null,
            note: 'no evidence recorded',
          };
    }),
    note: 'Each witness state is independent. A timestamp proof covers the root bytes only, not every cited card.',
  };
}

const OTS_MAGIC = Buffer.from('004f70656e54696d657374616d7073000050726f6f6600bf89e2e884e89294', 'hex');

/**
 * Checks evidence for a witness kind. An OpenTimestamps proof (`.ots`) whose file digest is
 * SHA-256 of the root bytes counts as STAMPED_PENDING_BITCOIN (its Bitcoin attestation is not
 * checked here, hence "pending"). cosignature/v1 lines over the release's log checkpoint, each
 * verified under a named witness key, count as WITNESSED for `transparency-log`.
 */
export function checkWitnessEvidence(
  kind: WitnessKind,
  evidence: Buffer,
  subject: WitnessSubject,
): { ok: true; state: WitnessState; note: string; log?: LogWitnessing } | { ok: false; reason: string } {
  if (kind === 'timestamp-proof') {
    if (!evidence.subarray(0, OTS_MAGIC.length).equals(OTS_MAGIC))
      return { ok: false, reason: 'not an OpenTimestamps proof (bad magic header)' };
    let at = OTS_MAGIC.length;
    at++; // version byte
    if (evidence[at] !== 0x08) return { ok: false, reason: 'the proof does not timestamp a SHA-256 digest' };
    const digest = evidence.subarray(at + 1, at + 33).toString('hex');
    if (digest !== subject.rootSha256)
      return { ok: false, reason: `the proof timestamps ${digest}, not the root bytes (${subject.rootSha256})` };
    return {
      ok: true,
      state: 'STAMPED_PENDING_BITCOIN',
      note: 'OpenTimestamps proof over the exact root bytes; Bitcoin attestation pending or not checked',
    };
  }
  if (kind === 'transparency-log') {
    if (subject.logCheckpoint === undefined)
      return {
        ok: false,
        reason: 'this release has no signed log checkpoint (the board key was unhealthy at publish)',
      };
    const checked = checkLogCosignatures(
      evidence.toString('utf8'),
      subject.logCheckpoint,
      subject.witnessKeys ?? [],
      subject.now + COSIGNATURE_MAX_FUTURE_SECONDS,
      subject.kept?.log,
    );
    if (!checked.ok) return checked;
    const { checkpoint, cosigners } = checked.witnessing;
    return {
      ok: true,
      state: 'WITNESSED',
      log: checked.witnessing,
      note: `log checkpoint ${checkpoint.origin} size ${checkpoint.tree_size} (holds every leaf of this root) cosigned by ${cosigners.map((c) => c.name).join(', ')}; a cosignature states log consistency, not the board's content`,
    };
  }
  return { ok: false, reason: `recording ${kind} evidence is not supported yet; it stays NOT_YET` };
}
