/**
 * `gspc export static`, the part that needs the whole service: the release is loaded and served
 * in-process exactly as `gspc serve` would serve it (the same keys, so the same signed board; the
 * same recorded witness evidence), and every free, release-bound GET document is read through
 * the service's own routes, with its headers. `src/export/static-mirror.ts` writes them out.
 * Which documents: every registry entry whose cache rule is `release` (the board for every
 * `?axis=`, cards and proofs, index, bundle, matrix, ledgers, root, pointer, witness record, the
 * card log, the DID document, the A2A agent card, the per-item files and manifest, the
 * release-bound status documents), three of the four pages (with the dashboard's axis pages) and
 * their assets. Not: paid routes,
 * /pricing, and documents built per request from a clock, a ledger or a live source
 * (docs/operations.md, "A static mirror").
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AppOptions } from './app.js';
import { assembleApp } from './app.js';
import { liveOf } from './service.js';
import { GspcError } from './core/errors.js';
import { type MirrorDocument, type MirrorResult, writeStaticMirror } from './export/static-mirror.js';
import { BOARD_KEY } from './core/evidence/signer.js';
import { signingContext } from './keys/signing.js';
import type { TokenConfig } from './keys/pkcs11-keys.js';
import { ASSET_DIR } from './pages/asset-routes.js';
import { axisPagePath } from './pages/axis-path.js';
import { currentReleaseDir } from './release/data-dir.js';
import { loadRelease } from './release/load.js';
import { releaseDid, requireOrigin } from './release/release-origin.js';
import { isReplica, requireReleaseKeys } from './release/release-keys.js';
import { readWitnesses } from './release/witness-store.js';
import { comparisonAxes } from './serve/documents/models.js';
import { ServedState } from './serve/served-state.js';

/**
 * The pages that are the same for every request to a release; their scripts and stylesheet are
 * the assets. Not /pricing: it states the catalogue as of the moment it is requested, and buying
 * needs the service itself.
 */
const PAGES = ['/dashboard', '/gspc-verify', '/methodology'];

/** Every mirrored document of the service `opts` describes, read through its routes. */
export async function mirrorDocuments(opts: AppOptions): Promise<MirrorDocument[]> {
  const { app, entries } = assembleApp({ ...opts, logLevel: 'silent' });
  const current = opts.state.current();
  const paths: { path: string; keyedByQuery: boolean }[] = [
    ...entries
      .filter((e) => e.cache.kind === 'release')
      .flatMap((e) => e.paths(current).map((path) => ({ path, keyedByQuery: e.query !== null }))),
    ...PAGES.map((path) => ({ path, keyedByQuery: false })),
    // Each model-comparison axis's page of every model and pair (issue 29).
    ...comparisonAxes(current).map((axis) => ({ path: axisPagePath(axis), keyedByQuery: false })),
    ...readdirSync(ASSET_DIR).map((f) => ({ path: `/assets/${f}`, keyedByQuery: false })),
  ];
  try {
    const docs: MirrorDocument[] = [];
    for (const { path, keyedByQuery } of paths) {
      const r = await app.inject({ method: 'GET', url: path });
      if (r.statusCode !== 200)
        throw new GspcError('internal', `GET ${path} answered ${r.statusCode}, not 200: it cannot be mirrored`);
      const headers = Object.fromEntries(
        Object.entries(r.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
      );
      docs.push({ path, keyedByQuery, headers, body: r.rawPayload });
    }
    return docs;
  } finally {
    await app.close();
  }
}

export interface StaticExportOptions {
  /** The keys the release was published with (default: the data directory's `keys/`). */
  keyDir?: string;
  /** nginx's `listen` (default 8080). */
  listen?: string;
  products?: AppOptions['products'];
  /** Export even without a usable board key (the mirror's board is then unsigned). */
  allowUnsigned?: boolean;
  /** GSPC_SIGNER=pkcs11: the token that holds the keys. */
  token?: TokenConfig;
}

/**
 * `target`: a release directory, or a data directory (its current release). The data directory
 * also gives the keys (for the board's attestation, as `gspc serve` signs it) and the witness
 * evidence recorded for the release.
 */
export async function exportStatic(
  target: string,
  outDir: string,
  o: StaticExportOptions = {},
): Promise<MirrorResult & { release: string; origin: string }> {
  const isRelease = existsSync(join(target, 'release.json'));
  const releaseDir = isRelease ? target : currentReleaseDir(target);
  if (releaseDir === undefined)
    throw new GspcError(
      'release_not_found',
      `${target} is neither a release directory nor a data directory with a current release`,
    );
  const dataDir = isRelease ? dirname(dirname(releaseDir)) : target;
  const release = loadRelease(releaseDir);
  // Releases published before public_url was recorded name only their DID's host.
  const host = releaseDid(release).slice('did:web:'.length).replace('%3A', ':');
  const origin = release.descriptor.public_url ?? `${/^(localhost|127\.)/.test(host) ? 'http' : 'https'}://${host}`;
  const keyDir = o.keyDir ?? join(dataDir, 'keys');
  const signing = signingContext(keyDir, new URL(origin).host, o.token);
  requireOrigin(release, signing.did, origin);
  // Without the board key the mirror's board would be unsigned while the service's is signed:
  // `gspc verify` of the mirror would fail its attestation.
  const board = signing.keys.health.find((k) => k.fragment === BOARD_KEY);
  if (board?.healthy !== true && o.allowUnsigned !== true)
    throw new GspcError(
      'keys_unhealthy',
      `the board key in ${keyDir} is not usable (${board?.reason ?? 'missing'}): the mirror's board would be unsigned, unlike the service's. ` +
        'Give the keys the release was published with (--key-dir), or export unsigned with --allow-unsigned; nothing was written',
    );
  // Even unsigned, the mirror's DID document must name the keys that signed the release.
  requireReleaseKeys(release, signing.keys.published, {
    keyDir,
    replica: isReplica(dataDir),
    transitions: signing.keys.transitions,
  });
  const state = new ServedState(release, liveOf(signing), (rootSha) => readWitnesses(dataDir, rootSha));
  const docs = await mirrorDocuments({ state, baseUrl: origin, ...(o.products && { products: o.products }) });
  const result = writeStaticMirror(docs, outDir, { release: release.id, origin, listen: o.listen ?? '8080' });
  return { ...result, release: release.id, origin };
}
