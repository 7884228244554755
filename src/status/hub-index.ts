/**
 * Reads the signed-card index of every hub for `/api/hub-cards` and `/api/dashboard/stats`:
 * this board's (the release's own index and withdrawal ledger files) and each peer board the
 * operator configured (GSPC_HUB_PEERS: its `/cards/index.json` and `/ledgers/withdrawals.json`;
 * fixed paths on a configured origin, never a URL from a request). A read index is cached for
 * ten minutes (Limits); a failed read is retried once at once, outside the cache, and a failure
 * is never cached, so the next request tries again.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { HUB_INDEX_CACHE_SECONDS, type HubIndex, type HubRead } from '../core/status/hub-cards.js';
import { fetchFailure, readCapped, sameOriginUrl } from './bounded-fetch.js';

const MAX_INDEX_BYTES = 32 * 1024 * 1024;

const indexSchema = z.object({
  cards: z.array(
    z.object({
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      url: z.string(),
      surface: z.string(),
      subject: z.string(),
      axis: z.string(),
      signed: z.boolean(),
    }),
  ),
});
const withdrawalsSchema = z.object({
  entries: z.array(
    z.object({
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      url: z.string(),
      subject: z.string(),
      axis: z.string(),
      reason: z.string(),
    }),
  ),
});

export interface HubPeer {
  name: string;
  url: string;
}

export interface HubIndexOptions {
  peers: readonly HubPeer[];
  timeoutMs: number;
  now: () => Date;
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  cacheMs?: number;
}

interface Source {
  hub: string;
  kind: 'self' | 'peer';
  index: string;
  cacheKey: string;
  load: () => Promise<HubIndex>;
}

function parseIndex(indexBytes: string, withdrawalBytes: string): HubIndex {
  const idx = indexSchema.safeParse(JSON.parse(indexBytes));
  if (!idx.success)
    throw new Error(
      `the card index is not a svc.card-index/1 document (${idx.error.issues[0]?.path.join('.') ?? ''}: ${idx.error.issues[0]?.message ?? ''})`,
    );
  const wd = withdrawalsSchema.safeParse(JSON.parse(withdrawalBytes));
  if (!wd.success)
    throw new Error(
      `the withdrawal ledger is not a svc.withdrawal-ledger/1 document (${wd.error.issues[0]?.path.join('.') ?? ''}: ${wd.error.issues[0]?.message ?? ''})`,
    );
  return {
    cells: idx.data.cards.map((c) => ({
      subject: c.subject,
      axis: c.axis,
      surface: c.surface,
      sha256: c.sha256,
      url: c.url,
      signed: c.signed,
    })),
    withdrawn: wd.data.entries.map((w) => ({
      subject: w.subject,
      axis: w.axis,
      sha256: w.sha256,
      url: w.url,
      reason: w.reason,
    })),
  };
}

export class HubIndexReader {
  private readonly cache = new Map<string, { index: HubIndex; at: Date }>();
  private readonly cacheMs: number;

  constructor(private readonly opts: HubIndexOptions) {
    this.cacheMs = opts.cacheMs ?? HUB_INDEX_CACHE_SECONDS * 1000;
  }

  /** Reads every hub: this release's index first, then each peer in the configured order. */
  async readAll(release: { id: string; dir: string }): Promise<HubRead[]> {
    const self: Source = {
      hub: 'self',
      kind: 'self',
      index: '/cards/index.json',
      cacheKey: `self:${release.id}`,
      load: async () =>
        parseIndex(
          await readFile(join(release.dir, 'evidence', 'card-index.json'), 'utf8'),
          await readFile(join(release.dir, 'evidence', 'withdrawals.json'), 'utf8'),
        ),
    };
    const peers = this.opts.peers.map(
      (p): Source => ({
        hub: p.name,
        kind: 'peer',
        index: sameOriginUrl(p.url, '/cards/index.json'),
        cacheKey: `peer:${p.name}:${p.url}`,
        load: async () =>
          parseIndex(
            await this.fetchText(p.url, '/cards/index.json'),
            await this.fetchText(p.url, '/ledgers/withdrawals.json'),
          ),
      }),
    );
    return Promise.all([self, ...peers].map((s) => this.read(s)));
  }

  private async read(s: Source): Promise<HubRead> {
    const now = this.opts.now();
    const cached = this.cache.get(s.cacheKey);
    const base = { hub: s.hub, kind: s.kind, index: s.index };
    if (cached && now.getTime() - cached.at.getTime() < this.cacheMs) {
      return {
        ...base,
        read_at: cached.at.toISOString(),
        from_cache: true,
        attempts: 0,
        result: { ok: true, index: cached.index },
      };
    }
    let reason = '';
    for (let attempt = 1; attempt <= 2; attempt++) {
      try {
        const index = await s.load();
        const at = this.opts.now();
        this.cache.set(s.cacheKey, { index, at });
        return {
          ...base,
          read_at: at.toISOString(),
          from_cache: false,
          attempts: attempt,
          result: { ok: true, index },
        };
      } catch (err) {
        reason = describe(err, this.opts.timeoutMs);
      }
    }
    this.cache.delete(s.cacheKey);
    return { ...base, read_at: null, from_cache: false, attempts: 2, result: { ok: false, reason } };
  }

  private async fetchText(origin: string, path: string): Promise<string> {
    const url = sameOriginUrl(origin, path);
    const res = await (this.opts.fetch ?? fetch)(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(this.opts.timeoutMs),
      headers: { accept: 'application/json' },
    });
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      throw new Error(`${url} answered HTTP ${res.status}`);
    }
    return (await readCapped(res, MAX_INDEX_BYTES)).toString('utf8');
  }
}

function describe(err: unknown, timeoutMs: number): string {
  if ((err as { code?: string }).code === 'ENOENT') return `the index file is missing (${(err as Error).message})`;
  if (err instanceof SyntaxError) return `the index is not JSON (${err.message})`;
  return fetchFailure(err, timeoutMs);
}
