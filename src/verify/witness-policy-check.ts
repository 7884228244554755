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

export async function checkWitnessPolicy(src: ReleaseSource, policy: WitnessPolicy, add: AddCheck): Promise<void> {
  const bytes = await src.get('/log/checkpoint');
  const note = bytes === undefined ? undefined : parseNote(bytes.toString('utf8'));
  if (!note?.ok) {
    add('witness_policy', false, 'no signed checkpoint (/log/checkpoint) to hold the cosignatures');
    return;
  }
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
  add(
    'witness_policy',
    verdict.satisfied && verdict.logAccepted,
    !verdict.logAccepted
      ? `the checkpoint of ${origin} is signed by none of the policy's logs`
      : verdict.satisfied
        ? `quorum ${policy.quorum} holds: cosigned by ${who}`
        : `quorum ${policy.quorum} does not hold: cosigned by ${who} (of ${policy.witnesses.size} witnesses the policy names)`,
  );
}
