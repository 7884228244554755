/**
 * A free GET document of the service, registered once: its route, the query it reads, its
 * schema string, its cache rule and how it is read from the served release and live state.
 * The HTTP layer serves every entry through one route helper (src/web/document-routes.ts); the
 * agent surfaces and the pages read the same entries in-process (`readDocument`), with no HTTP
 * round trip. `paths` lists the concrete paths an entry answers for the served release, so a
 * static mirror or an OpenAPI document can iterate the registry.
 */
import type { Prepared } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import type { ReadLog, ServiceContext } from '../context.js';
import { BASE_HEADERS, JSON_TYPE } from '../headers.js';

/**
 * What a read answers: bytes prepared once per served release (strong ETag, 304 on a match), or
 * a JSON text built for this request with its own headers.
 */
export type DocumentBody =
  | { kind: 'prepared'; prepared: Prepared }
  | { kind: 'built'; text: string; headers: Readonly<Record<string, string>>; status?: number };

/** How long a reader may keep an answer, as the `cache-control` the document is served with. */
export type CacheRule =
  /** Built once per served release; served with an ETag (304 on If-None-Match). */
  | { kind: 'release'; cacheControl: string }
  /** Built on each request (it depends on the clock, a ledger or a live source). */
  | { kind: 'request'; cacheControl: string | null };

export interface DocumentRequest {
  /** Route parameters (`:file`, `*`), as the router matched them. */
  params: Readonly<Record<string, string>>;
  /** The query, already checked against the entry's parameters (src/web/query.ts rules). */
  query: ReadonlyMap<string, string>;
  /** The path as requested, without the query. */
  path: string;
  log: ReadLog;
}

export interface DocumentEntry<T = unknown> {
  /** A stable name (`regulation`, `board`, `card`). */
  id: string;
  /** The route pattern: a fixed path, or with `:name` (one segment) or a final `*`. */
  route: string;
  /**
   * The query parameters it reads; any other is a 400 `bad_query`. Null for files served as
   * published: their query is ignored (a cache-busting `?v=` must not break a static file).
   */
  query: readonly string[] | null;
  /** Parameters of {@link query} allowed past the 200-character cap, with their own (query.ts). */
  queryMax?: Readonly<Record<string, number>>;
  /** The `schema` string of the document, or null for files served as published (rows, evidence). */
  schema: string | null;
  cache: CacheRule;
  /** The concrete paths (with their queries) this entry answers for the served release. */
  paths(current: PreparedRelease): string[];
  read(ctx: ServiceContext, req: DocumentRequest): DocumentBody | Promise<DocumentBody>;
  /** Phantom: the type of the parsed document (never set at run time). */
  readonly __type?: T;
}

/**
 * A built document: compact as `JSON.stringify` writes it, or indented with a final newline
 * (`pretty`) where a person is expected to read it raw. `cacheControl` null sends none.
 */
export function built(value: unknown, cacheControl: string | null, pretty = false): DocumentBody {
  const text = pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value);
  const headers = {
    ...BASE_HEADERS,
    'content-type': JSON_TYPE,
    ...(cacheControl !== null && { 'cache-control': cacheControl }),
  };
  return { kind: 'built', text, headers };
}

export function prepared(p: Prepared): DocumentBody {
  return { kind: 'prepared', prepared: p };
}

/**
 * A value computed once per served release. A new release, new key health or new witness
 * evidence is a new PreparedRelease object (ServedState.swap), so the cache follows it.
 */
export function perRelease<V>(build: (p: PreparedRelease) => V): (p: PreparedRelease) => V {
  const cache = new WeakMap<PreparedRelease, V>();
  return (p) => {
    let v = cache.get(p);
    if (v === undefined) {
      v = build(p);
      cache.set(p, v);
    }
    return v;
  };
}

/** The bytes of a document body. */
export function bodyBytes(b: DocumentBody): Buffer {
  return b.kind === 'prepared' ? b.prepared.body : Buffer.from(b.text, 'utf8');
}

const parsedPrepared = new WeakMap<Prepared, unknown>();

function deepFreeze<V>(v: V): V {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/**
 * Records the parsed form of prepared JSON its builder already holds (`value` must be what
 * `JSON.parse(prepared.body)` gives, frozen), so a reader in-process is not made to parse it
 * again: 3.2 s for the 180 MB `/api/models` document at 1,000 models (issue 39).
 */
export function knownParsed(prepared: Prepared, value: unknown): void {
  parsedPrepared.set(prepared, deepFreeze(value));
}

/** The body's media type. */
export function contentTypeOf(b: DocumentBody): string {
  return (b.kind === 'prepared' ? b.prepared.headers['content-type'] : b.headers['content-type']) ?? JSON_TYPE;
}

/**
 * The document as served: parsed when it is JSON, else its text (per-item JSONL, the log's
 * signed notes). Prepared JSON is parsed once per release and frozen: one object answers every
 * concurrent reader, so nothing may change it in place.
 */
export function bodyJson<T>(b: DocumentBody): T {
  // JSON media types: application/json and the +json suffix (application/did+json); not NDJSON.
  if (!/^application\/([a-z0-9.-]+\+)?json(;|$)/.test(contentTypeOf(b))) return bodyBytes(b).toString('utf8') as T;
  if (b.kind === 'built') return JSON.parse(b.text) as T;
  let v = parsedPrepared.get(b.prepared);
  if (v === undefined) {
    v = deepFreeze(JSON.parse(b.prepared.body.toString('utf8')));
    parsedPrepared.set(b.prepared, v);
  }
  return v as T;
}
