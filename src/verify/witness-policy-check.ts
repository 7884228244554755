/**
 * `gspc verify --witness-policy <file>` (issue 31): the checkpoint a reader accepts must carry the
 * quorum of witness cosignatures the reader's own C2SP tlog-policy asks for, and, when the policy
 * lists logs, be signed by one of them (its key name being the log's origin). The check names the
 * witnesses whose cosignatures verify, and each of the policy's witnesses whose line does not count
 * and why (a cosignature dated more than COSIGNATURE_MAX_FUTURE_SECONDS after the reader's clock,
 * passed in as `now`, does not count).
 */
import { parseNote } from '../core/evidence/note/signed-note.js';
import { ed25519NoteVerifier } from '../core/evidence/note/signed-note.js';
import { evaluateWitnessPolicy, shownName, type WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import type { AddCheck } from './release-check.js';
import type { ReleaseSource } from './release-source.js';

/** Whether a signed checkpoint note carries the policy's quorum (and is signed by one of its logs), and the detail. */
export function judgeWitnessPolicy(
  noteText: string | undefined,
  policy: WitnessPolicy,
  now: Date,
): { ok: boolean; detail: string } {
  const note = noteText === undefined ? undefined : parseNote(noteText);
  if (!note?.ok) return { ok: false, detail: 'no signed checkpoint (/log/checkpoint) to hold the cosignatures' };
  const origin = note.text.split('\n')[0]!;
  const verdict = evaluateWitnessPolicy(
    policy,
    note.text,
    note.signatures,
    (key) => {
      if (key.name !== origin) return false;
      const verifier = ed25519NoteVerifier(key.name, key.publicKey);
      return note.signatures.some(
        (s) =>
          s.name === verifier.name &&
          s.keyId === verifier.keyId &&
          verifier.verify(Buffer.from(note.text), s.signature),
      );
    },
    Math.floor(now.getTime() / 1000),
  );
  const who = verdict.cosigned.length === 0 ? 'no witness of the policy' : verdict.cosigned.map(shownName).join(', ');
  const notCounted =
    verdict.refused.length === 0
      ? ''
      : `; not counted: ${verdict.refused.map((r) => `witness ${shownName(r.witness)}: ${r.reason}`).join('; ')}`;
  const quorum = shownName(policy.quorum);
  return {
    ok: verdict.satisfied && verdict.logAccepted,
    detail: !verdict.logAccepted
      ? `the checkpoint of ${origin} is signed by none of the policy's logs`
      : verdict.satisfied
        ? `quorum ${quorum} holds: cosigned by ${who}${notCounted}`
        : `quorum ${quorum} does not hold: cosigned by ${who} (of ${policy.witnesses.size} witnesses the policy names)${notCounted}`,
  };
}

export async function checkWitnessPolicy(
  src: ReleaseSource,
  policy: WitnessPolicy,
  now: () => Date,
  add: AddCheck,
): Promise<void> {
  const bytes = await src.get('/log/checkpoint');
  const { ok, detail } = judgeWitnessPolicy(bytes?.toString('utf8'), policy, now());
  add('witness_policy', ok, detail);
}
