#!/usr/bin/env node
/**
 * Bundles the pages' browser scripts (src/pages/browser/*.ts) with esbuild into
 * dist/pages/assets/, next to the stylesheet: small ES modules served from this origin only
 * (the pages load nothing from other origins). Run by `npm run build` after tsc.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src', 'pages');
const out = join(root, 'dist', 'pages', 'assets');
mkdirSync(out, { recursive: true });
const entries = readdirSync(join(src, 'browser'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => join(src, 'browser', f));
if (entries.length > 0) {
  await build({
    entryPoints: entries,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    outdir: out,
    logLevel: 'warning',
    legalComments: 'linked',
  });
}
for (const f of readdirSync(join(src, 'assets'))) copyFileSync(join(src, 'assets', f), join(out, f));
