/**
 * C2SP transparency-log formats on node:crypto Ed25519: signed notes and vkeys, checkpoints,
 * cosignature/v1, and the tlog-witness add-checkpoint decision.
 */
export { decodeBase64, encodeBase64 } from './base64.js';
export {
  ed25519NoteVerifier, formatNote, formatSignatureLine, isValidKeyName, keyId, keyIdHex, MAX_SIGNATURES, openNote, parseNote, signNote,
  SIG_TYPE_COSIGNATURE_V1, SIG_TYPE_ED25519,
  type NoteSignature, type NoteSigner, type NoteVerifier, type OpenedNote, type ParsedNote,
} from './signed-note.js';
export { formatVerifierKey, parseSignerKey, parseVerifierKey, verifierFromKey, verifierKeyOf, type VerifierKey } from './verifier-key.js';
export { formatCheckpoint, openCheckpoint, parseCheckpoint, type Checkpoint, type CheckpointOptions } from './checkpoint.js';
export { cosignatureMessage, cosignatureVerifier, decodeCosignature, signCosignature, verifyCosignature } from './cosignature.js';
export {
  decideAddCheckpoint, formatAddCheckpointRequest, MAX_PROOF_LINES, parseAddCheckpointRequest, parseCosignatureResponse,
  type AddCheckpointDecision, type AddCheckpointRequest, type WitnessedLog,
} from './witness.js';
