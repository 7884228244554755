/**
 * The release being served and its prepared bytes. Swapping in a new release prepares
 * everything first and then replaces one reference, so a request never sees a half-built state.
 */
import type { LiveState } from '../core/board/board.js';
import type { LoadedRelease } from '../release/load.js';
import { prepareRelease, type PreparedRelease } from './prepared.js';

export class ServedState {
  private prepared: PreparedRelease;

  constructor(release: LoadedRelease, private live: LiveState) {
    this.prepared = prepareRelease(release, live);
  }

  current(): PreparedRelease {
    return this.prepared;
  }

  swap(release: LoadedRelease): void {
    this.prepared = prepareRelease(release, this.live);
  }

  setLive(live: LiveState): void {
    this.live = live;
    this.prepared = prepareRelease(this.prepared.release, live);
  }
}

/** The live state of a release without a signing layer: no card check, the stamp unsigned. */
export function unsignedLiveState(): LiveState {
  return {
    signedCells: null,
    livingStamp: { verification_state: 'UNSIGNED', reason: 'this service has no board signing key; site_attestation is omitted' },
    limitations: ['The board is not signed by this service (no board signing key): check the numbers against the published per-item rows.'],
  };
}
