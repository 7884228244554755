/**
 * The board as served: built from the release and the live state, then attested with the board
 * key when it is healthy. The living stamp reports the service's own check of that signature
 * against the key its DID document publishes (it is outside the signed preimage).
 */
import { buildBoard, type BoardResponse, type LiveState } from '../core/board/board.js';
import { verify } from '../core/crypto/ed25519.js';
import type { PublishedKey } from '../core/evidence/did.js';
import { attest, attestationPreimage } from '../core/evidence/site-attestation.js';
import { BOARD_KEY, type SignerState } from '../core/evidence/signer.js';
import type { TransitionRecord } from '../core/evidence/key-transition.js';
import type { LoadedRelease } from '../release/load.js';
import { describeMismatches, type KeyMismatch } from '../release/release-keys.js';

export interface SigningLive {
  did: string;
  boardKey: SignerState;
  published: readonly PublishedKey[];
  /** The agent card key (`#card-attestation-2`); the A2A card is served unsigned without it. */
  cardKey?: SignerState;
  /** Every transition of the keys (`gspc keys rotate`): the DID document lists the retired keys. */
  transitions?: readonly TransitionRecord[];
}

/** `mismatches`: the release's keys the served DID document does not give (computed once per prepare). */
export function liveStateFor(
  release: LoadedRelease,
  signing: SigningLive,
  mismatches: readonly KeyMismatch[],
): LiveState {
  const limitations: string[] = [];
  if (!signing.boardKey.healthy)
    limitations.push(
      `The board is not signed: ${signing.boardKey.reason}. Check the numbers against the published per-item rows.`,
    );
  const unsignedCards = [...release.evidence.cards.values()].filter((c) => c.sig_ed25519 === null).length;
  if (unsignedCards > 0)
    limitations.push(
      `${unsignedCards} cards of this release are unsigned (their key was unhealthy at publish); leaders without a signed card are not named.`,
    );
  if (mismatches.length > 0)
    limitations.push(
      `The DID document served names other keys than those that signed this release (${describeMismatches(mismatches)}): its signatures do not verify here.`,
    );
  return { signedCells: release.evidence.signedCells, livingStamp: { verification_state: 'UNSIGNED' }, limitations };
}

export function signedBoard(
  release: LoadedRelease,
  axis: string | null,
  live: LiveState,
  signing: SigningLive,
  mismatches: readonly KeyMismatch[],
): Record<string, unknown> {
  const built = buildBoard(release.source, axis, live) as BoardResponse & Record<string, unknown>;
  const att = attest(built, signing.boardKey);
  // Served in the specification's field order: site_attestation before limitations. Key order
  // does not change the RFC 8785 preimage, so the signature is unaffected.
  const { limitations, site_attestation: _sa, ...rest } = built;
  const board: Record<string, unknown> = { ...rest, site_attestation: att, limitations };
  const measuredOn = board.measured_on as { living_stamp: LiveState['livingStamp'] };
  if (att.sig === undefined) {
    measuredOn.living_stamp = {
      verification_state: 'UNSIGNED',
      reason: signing.boardKey.healthy ? 'no signature' : signing.boardKey.reason,
    };
  } else if (mismatches.length > 0) {
    // The attestation may verify under the served key, but every signature of the release fails
    // under the DID document served beside it: the board is not what a reader can verify.
    measuredOn.living_stamp = {
      verification_state: 'FAILED',
      reason: `the DID document served names other keys than those that signed this release: ${describeMismatches(mismatches)}`,
    };
  } else {
    const pub = signing.published.find((k) => k.fragment === BOARD_KEY)?.publicKey;
    const ok = pub !== undefined && verify(pub, attestationPreimage(board), Buffer.from(att.sig, 'hex'));
    measuredOn.living_stamp = ok
      ? {
          verification_state: 'VERIFIED',
          reason: `site_attestation.sig verified by the service under ${att.signer} from its DID document`,
        }
      : { verification_state: 'FAILED', reason: 'site_attestation.sig does not verify under the published board key' };
  }
  return board;
}
