/**
 * Serves the pages' bundled scripts and stylesheet (`npm run build` writes them to
 * dist/pages/assets/; scripts/build-pages.mjs). Only plain file names are served, never a path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { GspcError } from '../core/errors.js';
import { BASE_HEADERS } from '../serve/headers.js';

export const ASSET_DIR = fileURLToPath(new URL('../../dist/pages/assets/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export function registerAssetRoutes(app: FastifyInstance, dir = ASSET_DIR): void {
  const cache = new Map<string, Buffer>();
  app.get<{ Params: { file: string } }>('/assets/:file', (req, reply) => {
    const file = req.params.file;
    const ext = /^[a-z0-9][a-z0-9._-]*(\.[a-z]+)$/.exec(file)?.[1];
    const type =
      ext === undefined ? undefined : TYPES[file.endsWith('.js.map') || file.endsWith('.css.map') ? '.map' : ext];
    if (type === undefined || file.includes('..')) throw new GspcError('not_found', `no asset ${file}`);
    let body = cache.get(file);
    if (body === undefined) {
      const path = join(dir, file);
      if (!existsSync(path)) throw new GspcError('not_found', `no asset ${file} (run npm run build)`);
      body = readFileSync(path);
      cache.set(file, body);
    }
    reply.headers({ ...BASE_HEADERS, 'content-type': type, 'cache-control': 'public, max-age=300' }).send(body);
  });
}
