/**
 * `GET /api/changes` (issue 31, `svc.release-changes/1`): the served release's changes against
 * its predecessor in the log (src/release/base-release.ts `predecessorDir`), as `gspc diff` names
 * them (`svc.release-diff/1` under `diff`). Built once per served release. A release with no
 * predecessor on this server (the log's first, or a replica holding one release) says so.
 * `releaseHistory` walks further back for the feed.
 */
import { diffReleases, type ReleaseDiff } from '../../core/board/release-diff.js';
import { predecessorDir } from '../../release/base-release.js';
import { loadRelease } from '../../release/load.js';
import { viewOfRelease } from '../../verify/release-view.js';
import { JSON_TYPE } from '../headers.js';
import { CACHE_CONTROL, prepare } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { perRelease, prepared, type DocumentEntry } from './document.js';

export const CHANGES_SCHEMA = 'svc.release-changes/1';
/** How many releases back the feed goes. */
const HISTORY = 20;

export interface ReleaseChanges {
  schema: typeof CHANGES_SCHEMA;
  release: string;
  as_of: string;
  predecessor: string | null;
  /** Why there is no predecessor, when there is none. */
  reason?: string;
  diff: ReleaseDiff | null;
}

/** The served release and up to 20 before it, newest first, each with its changes against the one before. */
export const releaseHistory = perRelease((p: PreparedRelease): ReleaseChanges[] => {
  const out: ReleaseChanges[] = [];
  // The served release is already loaded; each earlier one is loaded once, as it is reached.
  let dir: string | undefined = p.release.dir;
  let view = viewOfRelease(p.release);
  while (dir !== undefined && out.length < HISTORY) {
    const before = predecessorDir(dir);
    const previous = before === undefined ? undefined : viewOfRelease(loadRelease(before));
    out.push({
      schema: CHANGES_SCHEMA,
      release: view.id,
      as_of: view.as_of,
      predecessor: previous?.id ?? null,
      ...(previous === undefined && {
        reason:
          'no earlier release of this log is held here (the first release, or a replica that holds only this one)',
      }),
      diff: previous === undefined ? null : diffReleases(previous, view),
    });
    dir = before;
    if (previous !== undefined) view = previous;
  }
  return out;
});

const bytesOf = perRelease((p: PreparedRelease) =>
  prepare(Buffer.from(JSON.stringify(releaseHistory(p)[0])), JSON_TYPE),
);

export const changesDocument: DocumentEntry<ReleaseChanges> = {
  id: 'changes',
  route: '/api/changes',
  query: [],
  schema: CHANGES_SCHEMA,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: () => ['/api/changes'],
  read: (ctx) => prepared(bytesOf(ctx.state.current())),
};
