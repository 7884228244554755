/**
 * The root witness record (`/interop/root-witness-latest.json`): binds the exact root bytes
 * (SHA-256 and length), the Merkle root, the leaf count and the as-of, with one independent
 * state per witness. A state is NOT_YET until the operator records evidence (`gspc witness`);
 * a timestamp proof covers the root bytes only, not every cited card.
 */
import { createHash } from 'node:crypto';

export const WITNESS_KINDS = ['transparency-log', 'timestamp-proof', 'attestation-service', 'ledger-memo'] as const;
export type WitnessKind = (typeof WITNESS_KINDS)[number];
export type WitnessState = 'WITNESSED' | 'STAMPED_PENDING_BITCOIN' | 'NOT_YET';

export interface WitnessEvidence {
  kind: WitnessKind;
  state: WitnessState;
  evidence_sha256: string;
  evidence_bytes: number;
  note: string;
}

export function witnessRecord(rootBytes: Buffer, root: { merkle_root: string; leaf_count: number; as_of: string }, recorded: readonly WitnessEvidence[]) {
  const byKind = new Map(recorded.map((r) => [r.kind, r]));
  return {
    schema: 'svc.root-witness/1',
    root_url: '/root.json',
    root_sha256: createHash('sha256').update(rootBytes).digest('hex'),
    root_bytes: rootBytes.length,
    merkle_root: root.merkle_root,
    leaf_count: root.leaf_count,
    as_of: root.as_of,
    witnesses: WITNESS_KINDS.map((kind) => {
      const r = byKind.get(kind);
      return r
        ? { witness: kind, state: r.state, evidence_sha256: r.evidence_sha256, evidence_bytes: r.evidence_bytes, note: r.note }
        : { witness: kind, state: 'NOT_YET' as WitnessState, evidence_sha256: null, evidence_bytes: null, note: 'no evidence recorded' };
    }),
    note: 'Each witness state is independent. A timestamp proof covers the root bytes only, not every cited card.',
  };
}

const OTS_MAGIC = Buffer.from('004f70656e54696d657374616d7073000050726f6f6600bf89e2e884e89294', 'hex');

/**
 * Checks evidence for a witness kind against the root bytes' SHA-256. An OpenTimestamps proof
 * (`.ots`) whose file digest is SHA-256 of the root bytes counts as STAMPED_PENDING_BITCOIN
 * (its Bitcoin attestation is not checked here, hence "pending").
 */
export function checkWitnessEvidence(kind: WitnessKind, evidence: Buffer, rootSha256: string): { ok: true; state: WitnessState; note: string } | { ok: false; reason: string } {
  if (kind === 'timestamp-proof') {
    if (!evidence.subarray(0, OTS_MAGIC.length).equals(OTS_MAGIC)) return { ok: false, reason: 'not an OpenTimestamps proof (bad magic header)' };
    let at = OTS_MAGIC.length;
    at++; // version byte
    if (evidence[at] !== 0x08) return { ok: false, reason: 'the proof does not timestamp a SHA-256 digest' };
    const digest = evidence.subarray(at + 1, at + 33).toString('hex');
    if (digest !== rootSha256) return { ok: false, reason: `the proof timestamps ${digest}, not the root bytes (${rootSha256})` };
    return { ok: true, state: 'STAMPED_PENDING_BITCOIN', note: 'OpenTimestamps proof over the exact root bytes; Bitcoin attestation pending or not checked' };
  }
  return { ok: false, reason: `recording ${kind} evidence is not supported yet; it stays NOT_YET` };
}
