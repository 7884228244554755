/**
 * `GET /feed.atom` (issues 31 and 39): an Atom 1.0 feed (RFC 4287) with one entry per release (the
 * served one and up to 20 before it, each with its changes against the one before, as `gspc diff`
 * words them) and one per correction of the served corpus, each linking to its signed evidence.
 *
 * - Author: the service itself as it knows itself, its DID (name) and public origin (uri); the
 *   feed names no person, and every entry inherits it.
 * - Dates: a release is dated when it was signed, which is when publish wrote its release.json
 *   (the time `checkpoint-times.ts` reads too; nothing signed records a clock: the root's `as_of`
 *   is the corpus's, shared by every release of one corpus); a correction by its `published_at`
 *   (a day alone: that day's start; UNRECORDED: its `date`). Newest first; the feed's `updated`
 *   is the newest entry's (decision FD2).
 * - Text: titles are plain text, content is HTML with every corpus string escaped (atom.ts).
 *
 * Built once per served release.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describeDiff } from '../../core/board/release-diff.js';
import { isoDay, readRecordedTime } from '../../core/ledger/corrections-time.js';
import { predecessorDir } from '../../release/base-release.js';
import { CACHE_CONTROL, prepare, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { type AtomEntry, writeAtom } from './atom.js';
import { releaseHistory } from './changes.js';
import { prepared, type DocumentEntry } from './document.js';

const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
const JSON_LINK = 'application/json';

/** When publish wrote a release directory's release.json, its last step after signing. */
function signedAt(dir: string): Date | undefined {
  try {
    return statSync(join(dir, 'release.json')).mtime;
  } catch {
    return undefined;
  }
}

/**
 * When each release of the history was signed, in the history's order: the same walk as
 * `releaseHistory` (the served directory, then `predecessorDir` of each), so the i-th directory
 * is the i-th release.
 */
function signedTimes(p: PreparedRelease, count: number): (Date | undefined)[] {
  const out: (Date | undefined)[] = [];
  let dir: string | undefined = p.release.dir;
  while (dir !== undefined && out.length < count) {
    out.push(signedAt(dir));
    dir = predecessorDir(dir);
  }
  return out;
}

/** A correction's publication instant: its `published_at`, else its `date` (both UTC). */
function publishedAt(entry: { published_at?: string; date?: string }, fallback: Date): Date {
  const t = entry.published_at === undefined ? undefined : readRecordedTime(entry.published_at, true);
  if (t?.kind === 'datetime') return new Date(t.at);
  if (t?.kind === 'date') return new Date(t.start);
  const day = entry.date === undefined ? undefined : isoDay(entry.date);
  return day === undefined ? fallback : new Date(day);
}

function buildFeed(p: PreparedRelease, base: string): Prepared {
  const history = releaseHistory(p);
  const times = signedTimes(p, history.length);
  // Only a release.json that cannot be read (never for a loaded release) falls back to its as_of.
  const dateOf = (i: number) => times[i] ?? new Date(Date.parse(history[i]!.as_of));
  const releases: AtomEntry[] = history.map((h, i) => ({
    title:
      h.diff === null
        ? `Release ${h.release} (as of ${h.as_of}): the first release held here`
        : `Release ${h.release} (as of ${h.as_of}): ${h.diff.changed ? 'what changed since' : 'nothing changed since'} ${h.predecessor}`,
    id: `urn:gspc:release:${h.release}`,
    // The served release's evidence is served; earlier ones are in the log's history.
    link: { rel: 'alternate', type: JSON_LINK, href: i === 0 ? `${base}/api/changes` : `${base}/log/history.json` },
    updated: dateOf(i),
    content:
      h.diff === null
        ? [{ p: h.reason ?? '' }]
        : (([first, ...rest]) => [{ p: first ?? '' }, { ul: rest }])(describeDiff(h.diff)),
  }));
  const served = dateOf(0);
  const corrections: AtomEntry[] = (p.release.corpus.status.corrections?.entries ?? []).map(({ id, entry }) => ({
    title: `Correction ${id}${entry.status ? `: ${entry.status}` : ''}`,
    id: `urn:gspc:correction:${id}`,
    link: { rel: 'alternate', type: JSON_LINK, href: `${base}/corrections/${id}.json` },
    updated: publishedAt(entry, served),
    // An entry says what changed in `what_changed` or in `fix` (the schema takes either; the
    // demo's C-2026-0310-01 uses `fix`, which the feed dropped: review of issue 39).
    content: [entry.what_was_wrong, entry.what_changed, entry.fix]
      .filter((x) => x !== undefined)
      .map((x) => ({ p: x })),
  }));
  const entries = [...releases, ...corrections].sort(
    (a, b) => b.updated.getTime() - a.updated.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const xml = writeAtom({
    id: `${base}/feed.atom`,
    title: `Releases and corrections: ${p.release.source.meta.issuer}`,
    author: { name: p.didDocument.id, uri: `${base}/` },
    links: [
      { rel: 'self', type: 'application/atom+xml', href: `${base}/feed.atom` },
      { rel: 'alternate', type: 'text/html', href: `${base}/dashboard` },
    ],
    generator: 'gspc-board',
    entries,
    emptyUpdated: served,
  });
  return prepare(Buffer.from(xml, 'utf8'), ATOM_TYPE);
}

// Per served release; the base URL is the service's own and does not change under it.
const built = new WeakMap<PreparedRelease, Prepared>();

export const feedDocument: DocumentEntry<string> = {
  id: 'feed',
  route: '/feed.atom',
  query: [],
  schema: null,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: () => ['/feed.atom'],
  read: (ctx) => {
    const p = ctx.state.current();
    let bytes = built.get(p);
    if (bytes === undefined) {
      bytes = buildFeed(p, ctx.baseUrl);
      built.set(p, bytes);
    }
    return prepared(bytes);
  },
};
