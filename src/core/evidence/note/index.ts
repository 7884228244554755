/**
 * C2SP transparency-log formats on node:crypto Ed25519: signed notes and vkeys, checkpoints,
 * cosignature/v1, and the tlog-witness add-checkpoint decision.
 */
export {
  ed25519NoteVerifier,
  formatNote,
  keyIdHex,
  openNote,
  parseNote,
  signNote,
  type NoteSignature,
  type NoteSigner,
  type NoteVerifier,
} from './signed-note.js';
export { formatVerifierKey, parseSignerKey, parseVerifierKey, verifierFromKey, verifierKeyOf } from './verifier-key.js';
export { formatCheckpoint, openCheckpoint, parseCheckpoint, type Checkpoint } from './checkpoint.js';
export {
  cosignatureMessage,
  cosignatureVerifier,
  decodeCosignature,
  signCosignature,
  verifyCosignature,
} from './cosignature.js';
export {
  decideAddCheckpoint,
  formatAddCheckpointRequest,
  parseAddCheckpointRequest,
  parseCosignatureResponse,
  type WitnessedLog,
} from './witness.js';
