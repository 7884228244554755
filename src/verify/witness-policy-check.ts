/**
 * `gspc verify --witness-policy <file>` (issue 31): the checkpoint a reader accepts must carry the
 * quorum of witness cosignatures the reader's own C2SP tlog-policy asks for, and, when the policy
 * lists logs, be signed by one of them (its key name being the log's origin). The check names the
 * witnesses whose cosignatures verify.
 */
import { parseNote } from '../core/evidence/note/signed-note.js';
import { ed25519NoteVerifier } from '../core/evidence/note/signed-note.js';
import { evaluateWitnessPolicy, type WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import type { AddCheck } from './release-check.js';
import type { ReleaseSource } from './release-source.js';

/** Whether a signed checkpoint note carries the policy's quorum (and is signed by one of its logs), and the detail. */
export function judgeWitnessPolicy(
  noteText: string | undefined,
  policy: WitnessPolicy,
): { ok: boolean; detail: string } {
  const note = noteText === undefined ? undefined : parseNote(noteText);
  if (!note?.ok) return { ok: false, detail: 'no signed checkpoint (/log/checkpoint) to hold the cosignatures' };
  const origin = note.text.split('\n')[0]!;
  const verdict = evaluateWitnessPolicy(policy, note.text, note.signatures, (key) => {
    if (key.name !== origin) return false;
    const verifier = ed25519NoteVerifier(key.name, key.publicKey);
    return note.signatures.some(
      (s) =>
        s.name === verifier.name && s.keyId === verifier.keyId && verifier.verify(Buffer.from(note.text), s.signature),
    );
  });
  const who = verdict.cosigned.length === 0 ? 'no witness of the policy' : verdict.cosigned.join(', ');
  return {
    ok: verdict.satisfied && verdict.logAccepted,
    detail: !verdict.logAccepted
      ? `the checkpoint of ${origin} is signed by none of the policy's logs`
      : verdict.satisfied
        ? `quorum ${policy.quorum} holds: cosigned by ${who}`
        : `quorum ${policy.quorum} does not hold: cosigned by ${who} (of ${policy.witnesses.size} witnesses the policy names)`,
  };
}

export async function checkWitnessPolicy(src: ReleaseSource, policy: WitnessPolicy, add: AddCheck): Promise<void> {
  const bytes = await src.get('/log/checkpoint');
  const { ok, detail } = judgeWitnessPolicy(bytes?.toString('utf8'), policy);
  add('witness_policy', ok, detail);
}
