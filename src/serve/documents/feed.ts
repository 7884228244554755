/**
 * `GET /feed.atom` (issue 31): an Atom 1.0 feed with one entry per release (the served one and up
 * to 20 before it, each with its changes against the one before, as `gspc diff` words them) and
 * one per correction of the served corpus, each linking to its signed evidence. Written with the
 * `feed` library (jpmonette/feed); built once per served release.
 */
import { Feed } from 'feed';
import { describeDiff } from '../../core/board/release-diff.js';
import { CACHE_CONTROL, prepare, type Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { releaseHistory } from './changes.js';
import { prepared, type DocumentEntry } from './document.js';

const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

function buildFeed(p: PreparedRelease, base: string): Prepared {
  const history = releaseHistory(p);
  const meta = p.release.source.meta;
  const corrections = p.release.corpus.status.corrections?.entries ?? [];
  const dateOf = (s: string | undefined) => {
    const t = s === undefined ? Number.NaN : Date.parse(s);
    return new Date(Number.isNaN(t) ? Date.parse(meta.as_of) : t);
  };
  const items = [
    ...history.map((h, i) => ({
      title:
        h.diff === null
          ? `Release ${h.release} (as of ${h.as_of}): the first release held here`
          : `Release ${h.release} (as of ${h.as_of}): ${h.diff.changed ? 'what changed since ' + h.predecessor : 'nothing changed since ' + h.predecessor}`,
      id: `urn:gspc:release:${h.release}`,
      // The served release's evidence is served; earlier ones are in the log's history.
      link: i === 0 ? `${base}/api/changes` : `${base}/log/history.json`,
      date: dateOf(h.as_of),
      content: h.diff === null ? (h.reason ?? '') : describeDiff(h.diff).join('\n'),
    })),
    ...corrections.map(({ id, entry }) => ({
      title: `Correction ${id}${entry.status ? `: ${entry.status}` : ''}`,
      id: `urn:gspc:correction:${id}`,
      link: `${base}/corrections/${id}.json`,
      date: dateOf(entry.published_at),
      content: [entry.what_was_wrong, entry.what_changed].filter((x) => x !== undefined).join('\n'),
    })),
  ].sort((a, b) => b.date.getTime() - a.date.getTime() || a.id.localeCompare(b.id));
  const feed = new Feed({
    id: `${base}/feed.atom`,
    title: `Releases and corrections: ${meta.issuer}`,
    link: `${base}/dashboard`,
    updated: items[0]?.date ?? dateOf(meta.as_of),
    feedLinks: { atom: `${base}/feed.atom` },
    generator: 'gspc-board',
    copyright: meta.issuer,
  });
  for (const item of items) feed.addItem(item);
  return prepare(Buffer.from(feed.atom1(), 'utf8'), ATOM_TYPE);
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
