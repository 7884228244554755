/**
 * The release being served and its prepared bytes. Swapping in a new release prepares
 * everything first and then replaces one reference, so a request never sees a half-built state.
 */
import type { LoadedRelease } from '../release/load.js';
import { prepareRelease, type PreparedRelease } from './prepared.js';
import { liveStateFor, type SigningLive } from './signed-board.js';
import { keyMismatches } from '../release/release-keys.js';
import type { WitnessEvidence } from '../core/evidence/witness.js';

/** Reads the witness evidence recorded for a root (by the SHA-256 of its bytes). */
export type WitnessReader = (rootSha256: string) => WitnessEvidence[];

export class ServedState {
  private prepared: PreparedRelease;
  private readonly listeners = new Set<(next: PreparedRelease, previous: PreparedRelease) => void>();

  constructor(
    release: LoadedRelease,
    private signing: SigningLive,
    private readonly witnesses: WitnessReader = () => [],
  ) {
    this.prepared = this.prepareFor(release);
  }

  private prepareFor(release: LoadedRelease, signing: SigningLive = this.signing): PreparedRelease {
    const mismatches = keyMismatches(release, signing.published, signing.transitions);
    return prepareRelease(
      release,
      liveStateFor(release, signing, mismatches),
      signing,
      this.witnesses(release.evidence.rootSha256),
      mismatches,
    );
  }

  current(): PreparedRelease {
    return this.prepared;
  }

  signingLive(): SigningLive {
    return this.signing;
  }

  /**
   * Serves another release; everything is prepared before the one reference is replaced.
   * `signing`: the keys this release is served with, when they change with it (a key change
   * published with the release: src/keys/signing.ts signingFor), swapped in the same step.
   */
  swap(release: LoadedRelease, signing?: SigningLive): void {
    const previous = this.prepared;
    const prepared = this.prepareFor(release, signing ?? this.signing);
    if (signing !== undefined) this.signing = signing;
    this.prepared = prepared;
    for (const l of this.listeners) {
      try {
        l(this.prepared, previous);
      } catch {
        /* a listener's failure never blocks serving */
      }
    }
  }

  /**
   * Called after every swap (new release, new key health, new witness evidence) with the new and
   * the previous prepared state; returns the function that stops it. Streams (AG-UI) use it.
   */
  onChange(listener: (next: PreparedRelease, previous: PreparedRelease) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Re-reads recorded witness evidence (after `gspc witness`). */
  refreshWitnesses(): void {
    this.swap(this.prepared.release);
  }

  /** New key health (checked on reload): the board is re-attested or left unsigned. */
  setSigning(signing: SigningLive): void {
    this.signing = signing;
    this.swap(this.prepared.release);
  }
}
