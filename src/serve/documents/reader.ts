/**
 * Reads registered documents in-process: what the agent surfaces (MCP tools, A2A skills) and
 * the pages use instead of an HTTP round trip. The answer is the document exactly as its route
 * serves it (the same entry builds both), or the route's own error body and status.
 */
import { GspcError } from '../../core/errors.js';
import type { ReadLog, ServiceContext } from '../context.js';
import { failureOf } from '../error-body.js';
import { readQuery } from '../query.js';
import { bodyJson, type DocumentBody, type DocumentEntry } from './document.js';

/** The error body every route answers: `{ error, code, ...details }`. */
export type ErrorBody = { error: string; code: string } & Record<string, unknown>;

export type DocumentRead<T> =
  | { ok: true; status: 200; value: T; body: DocumentBody; source: string }
  | { ok: false; status: number; value: ErrorBody; source: string };

export interface ReadRequest {
  /** The concrete path for an entry whose route has parameters (`/cards/<id>.json`). */
  path?: string;
  /** Query parameters; checked against the entry's as its route checks them. */
  query?: Readonly<Record<string, string | undefined>>;
}

const SILENT: ReadLog = { warn: () => undefined, error: () => undefined };

export class DocumentReader {
  private readonly byId: Map<string, DocumentEntry>;

  constructor(
    private readonly ctx: ServiceContext,
    readonly entries: readonly DocumentEntry[],
    private readonly log: ReadLog = SILENT,
  ) {
    this.byId = new Map(entries.map((e) => [e.id, e]));
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The entry whose route answers `path` (no query), if any is registered. */
  entryFor(path: string): DocumentEntry | undefined {
    // A fixed route wins over a pattern (`/cards/index.json` over `/cards/:file`), as in the router.
    return this.entries.find((e) => e.route === path) ?? this.entries.find((e) => routeMatches(e.route, path));
  }

  /**
   * Reads the document at a path of this service (`/api/gspc?axis=jail`, `/cards/<id>.json`): the
   * registered entry whose route matches, read directly. A path no entry serves is answered as
   * the service answers it: 404 `not_found`.
   */
  async readPath<T = Record<string, unknown>>(pathAndQuery: string): Promise<DocumentRead<T>> {
    if (!pathAndQuery.startsWith('/') || pathAndQuery.startsWith('//'))
      throw new Error(`readPath takes a path of this service, not ${pathAndQuery}`);
    const q = pathAndQuery.indexOf('?');
    const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
    const entry = this.entryFor(path);
    if (!entry)
      return {
        ok: false,
        status: 404,
        value: { error: `no resource at GET ${path}`, code: 'not_found' },
        source: `GET ${pathAndQuery}`,
      };
    return this.run<T>(entry, path, q === -1 ? '' : pathAndQuery.slice(q + 1));
  }

  /** Reads the document registered under `id` (an unknown id is a programming error: thrown). */
  async read<T = Record<string, unknown>>(id: string, req: ReadRequest = {}): Promise<DocumentRead<T>> {
    const entry = this.byId.get(id);
    if (!entry) throw new Error(`no document '${id}' is registered`);
    const q = new URLSearchParams(
      Object.entries(req.query ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
    );
    return this.run<T>(entry, req.path ?? entry.route, q.toString());
  }

  private async run<T>(entry: DocumentEntry, path: string, qs: string): Promise<DocumentRead<T>> {
    const source = `GET ${path}${qs ? `?${qs}` : ''}`;
    try {
      const query =
        entry.query === null
          ? new Map<string, string>()
          : readQuery(`${path}${qs ? `?${qs}` : ''}`, entry.query, [], entry.queryMax);
      const body = await entry.read(this.ctx, { params: paramsOf(entry.route, path), query, path, log: this.log });
      return { ok: true, status: 200, value: bodyJson<T>(body), body, source };
    } catch (err) {
      // As the route would answer: a broken contract with its code, anything else a logged 500.
      if (!(err instanceof GspcError)) this.log.error({ err }, `reading ${source} failed`);
      const f = failureOf(err);
      return { ok: false, status: f.status, value: f.body as ErrorBody, source };
    }
  }
}

/** Whether a route pattern (fixed, `:name` for one segment, or a final `*`) matches a path. */
export function routeMatches(route: string, path: string): boolean {
  const star = route.indexOf('*');
  if (star !== -1) return path.startsWith(route.slice(0, star));
  const colon = route.indexOf(':');
  if (colon === -1) return route === path;
  const prefix = route.slice(0, colon);
  return path.startsWith(prefix) && path.length > prefix.length && !path.slice(prefix.length).includes('/');
}

/** The parameters of a route pattern (`/cards/:file`, `/peritem/*`) in a concrete path. */
export function paramsOf(route: string, path: string): Record<string, string> {
  const star = route.indexOf('*');
  if (star !== -1) return path.startsWith(route.slice(0, star)) ? { '*': path.slice(star) } : {};
  const colon = route.indexOf(':');
  if (colon === -1) return {};
  const prefix = route.slice(0, colon);
  return path.startsWith(prefix) ? { [route.slice(colon + 1)]: path.slice(prefix.length) } : {};
}
