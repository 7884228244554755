/**
 * The /gspc-verify page's tlog-proof form (issue 42, TP4): a card's C2SP tlog-proof checked in
 * this browser with the one verifier `gspc verify` runs (src/core/verify/tlog-proof.ts). The log
 * keys are the board keys of the DID document at the DID's host (anchored as every other check
 * here); nothing of the log is read, and the proof's own signers are never trusted. The page knows
 * no witness keys: cosignatures are listed as ignored, not counted.
 */
import type { VerifyCrypto } from '../../core/crypto/verify-crypto.js';
import { anchoredKeysOf, type PublicFiles } from '../../core/verify/service-context.js';
import { trustedLogsOfDidDocument, type TlogProofVerdict, verifyTlogProof } from '../../core/verify/tlog-proof.js';
import { keysAtHost, PAGE_HINT } from './verify-keys.js';
import { checkRow, el, finish, showBusy, showError, state, table, timing } from './verify-render.js';

const SHA256 = /^[0-9a-f]{64}$/;

export async function checkTlogProof(
  crypto: VerifyCrypto,
  files: PublicFiles,
  box: HTMLElement,
  card: string,
  text: string,
): Promise<void> {
  const t0 = performance.now();
  if (!SHA256.test(card)) {
    showError(box, 'Give the card’s sha256: all 64 hex characters, lower case (the leaf is computed from it).');
    return;
  }
  if (text === '') {
    showError(box, 'Paste the tlog-proof: the text served at /cards/<id>.tlog-proof.');
    return;
  }
  showBusy(box, 'Reading the DID document at the DID’s host (the log’s keys)…');
  const keys = await anchoredKeysOf(files, crypto, keysAtHost, [], PAGE_HINT);
  const v = await verifyTlogProof(crypto, text, card, {
    logs: trustedLogsOfDidDocument(keys.docs.didDocument),
    now: Math.floor(Date.now() / 1000),
  });
  // Keys the host did not vouch for prove nothing: never VALID under them.
  const result = v.result === 'VALID' && !keys.anchor.ok ? keys.anchor.state : v.result;
  show(box, v, result, keys.anchor.ok ? undefined : keys.anchor.detail, performance.now() - t0);
}

function show(box: HTMLElement, v: TlogProofVerdict, result: string, anchorProblem: string | undefined, ms: number) {
  const rows = v.checks.map(checkRow);
  finish(
    box,
    result,
    ms,
    el('h3', { class: 'verdict' }, 'tlog-proof: ', state(result)),
    v.code === null ? null : el('p', { class: 'verify-tlog-code', 'data-code': v.code }, `Code: ${v.code}.`),
    anchorProblem === undefined ? null : el('p', { class: 'callout' }, `key_anchor: ${anchorProblem}`),
    // The page's verdict, not the proof's alone: under keys the DID's host did not vouch for
    // (an impostor's own, read from the page's origin) nothing is said to be in the log (R3-4).
    v.claims && result === 'VALID'
      ? el(
          'p',
          {},
          `The card is entry ${v.claims.index} of ${v.claims.origin}, in the checkpoint of size ${v.claims.tree_size} the board key signed.`,
        )
      : null,
    table('What was checked', ['Check', 'Result', 'Reason'], rows),
    v.ignored.length === 0
      ? null
      : el(
          'p',
          { class: 'note' },
          `Signatures by keys this page does not know (witnesses), not counted: ${v.ignored.join(', ')}.`,
        ),
    timing(ms, 'Checked'),
  );
}
