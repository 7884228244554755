/**
 * The release a new publish continues, chosen by one stated rule and read once, through the
 * hash-checked loader `gspc serve` uses (issue 16). Before, three readers each read the data
 * directory their own way and checked no hashes: the corrections guard (`current`'s release.json),
 * the previous cards and ledgers (`current`'s evidence) and the previous card log (the largest
 * of any release): a hand-edited or half-damaged release was continued without a word, and a
 * rolled-back `current` gave cards from one release and the log of another.
 *
 * The rule: among the releases signed for the publishing DID, the one with the longest card log
 * (the log only grows, so this is the newest; `current` wins a tie, and then the newest id on
 * disk is irrelevant because equal logs mean equal histories). Releases of another DID start no
 * history here (release-origin.ts). A base that does not match its release.json refuses the
 * publish (`release_invalid`, from the loader), since continuing it would sign its damage.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PreviousLog } from '../core/evidence/card-log.js';
import { GspcError } from '../core/errors.js';
import { currentReleaseDir } from './data-dir.js';
import { EVIDENCE_DIR, type PreviousEvidence } from './evidence.js';
import { type LoadedRelease, loadRelease } from './load.js';
import { releaseDirDid } from './release-origin.js';

function logSize(dir: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, EVIDENCE_DIR, 'log-history.json'), 'utf8')) as { tree_size: number })
      .tree_size;
  } catch {
    return undefined;
  }
}

/** The directory of the release a publish for `did` continues, or undefined for a first publish. */
export function baseReleaseDir(dataDir: string, did: string): string | undefined {
  const releases = join(dataDir, 'releases');
  if (!existsSync(releases)) return undefined;
  const current = currentReleaseDir(dataDir);
  let best: { dir: string; size: number } | undefined;
  for (const name of readdirSync(releases).sort()) {
    if (name.startsWith('.')) continue;
    const dir = join(releases, name);
    if (releaseDirDid(dir) !== did) continue;
    const size = logSize(dir);
    if (size === undefined) continue;
    if (!best || size > best.size || (size === best.size && dir === current)) best = { dir, size };
  }
  return best?.dir;
}

/**
 * The release before `releaseDir` in its log: among the releases beside it signed for the same
 * DID, the one with the longest log shorter than its own (the latest id on a tie: equal logs
 * are equal histories). Undefined for the first release of a log, or a replica that holds only
 * this one. `GET /api/changes` and the feed compare a release with it.
 */
export function predecessorDir(releaseDir: string): string | undefined {
  const releases = dirname(releaseDir);
  const size = logSize(releaseDir);
  const did = releaseDirDid(releaseDir);
  if (size === undefined || !existsSync(releases)) return undefined;
  let best: { dir: string; size: number } | undefined;
  for (const name of readdirSync(releases).sort()) {
    if (name.startsWith('.')) continue;
    const dir = join(releases, name);
    const s = logSize(dir);
    if (s === undefined || s >= size || releaseDirDid(dir) !== did) continue;
    if (!best || s >= best.size) best = { dir, size: s };
  }
  return best?.dir;
}

/** The base release, loaded and checked against its release.json. */
export function loadBaseRelease(dataDir: string, did: string): LoadedRelease | undefined {
  const dir = baseReleaseDir(dataDir, did);
  if (dir === undefined) return undefined;
  try {
    return loadRelease(dir);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new GspcError(
      'release_invalid',
      `the release this publish continues (${dir}, the longest card log for ${did}) does not load: ${why}; nothing was published`,
    );
  }
}

function cardOf(base: LoadedRelease, sha256: string) {
  const card = base.evidence.cards.get(sha256);
  if (card === undefined)
    throw new GspcError(
      'release_invalid',
      `${base.dir}: issued card ${sha256} has no card file; nothing was published`,
    );
  return card;
}

/** Cards and ledgers of the base release, which the new release continues. */
export function previousEvidence(base: LoadedRelease): PreviousEvidence {
  const read = <T>(file: string) =>
    JSON.parse(base.evidence.files.get(`${EVIDENCE_DIR}/${file}`)!.toString('utf8')) as T;
  const issued = read<{ sha256: string; model: string | null; axis: string; withdrawn?: string }[]>('issued.json');
  return {
    cards: issued.map((i) => ({
      card: cardOf(base, i.sha256),
      model: i.model,
      axis: i.axis,
      ...(i.withdrawn !== undefined && { withdrawn: i.withdrawn }),
    })),
    withdrawals: read<{ entries: PreviousEvidence['withdrawals'] }>('withdrawals.json').entries,
    supersessions: read<{ entries: PreviousEvidence['supersessions'] }>('supersessions.json').entries,
  };
}

/** The card log of the base release, which the new release extends. */
export function previousLog(base: LoadedRelease): PreviousLog {
  const { entries, history, checkpoint } = base.evidence.log;
  return { entries, history, ...(checkpoint !== undefined && { checkpoint }) };
}
