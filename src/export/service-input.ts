/**
 * A running service as export input, read from the base URL the user gives and fixed public
 * paths only (`/api/gspc`, `/peritem/manifest.json`, `/peritem/board.json`,
 * `/peritem/axes/<axis>.json`, `/peritem/<axis>.jsonl`, `/peritem/runs.json` when listed), each with a deadline, no redirects and a
 * size cap (status's bounded fetch). Nothing is trusted on its own: the manifest must hash to the
 * board's `measured_on.peritem_sha256`, every file to its manifest entry, and each leader's
 * served accuracy must be what the rows give when the cells are derived again here.
 */
import type { AxisRow } from '../core/board/axis-row.js';
import { deriveComparisonRow } from '../core/board/comparison-row.js';
import type { ModelComparisonAxis } from '../core/board/model.js';
import type { PeritemManifest } from '../core/board/peritem-manifest.js';
import { GspcError } from '../core/errors.js';
import { parseJsonFile } from '../corpus/json-file.js';
import { readPerItemRows } from '../corpus/peritem-rows.js';
import { sha256Hex } from '../corpus/read-corpus.js';
import { axisFileSchema, boardFileSchema } from '../corpus/schemas.js';
import { runsFileSchema } from '../corpus/run-settings.js';
import type { RunSettings } from '../core/board/run-settings.js';
import { fetchFailure, readCapped, sameOriginUrl } from '../status/bounded-fetch.js';
import { exportRows, type ExportAxis, type ExportInput } from './export-input.js';

export const FETCH_TIMEOUT_MS = 30_000;
/** Caps: JSON documents are small; per-item files can hold a few million rows. */
export const MAX_JSON_BYTES = 16 * 1024 * 1024;
export const MAX_ROWS_BYTES = 512 * 1024 * 1024;

export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

async function get(base: string, path: string, max: number, fetcher: Fetcher): Promise<Buffer> {
  const url = sameOriginUrl(base, path);
  let res: Response;
  try {
    res = await fetcher(url, { redirect: 'manual', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch (e) {
    throw new GspcError('release_not_found', `GET ${url}: ${fetchFailure(e, FETCH_TIMEOUT_MS)}`);
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => undefined);
    throw new GspcError('release_not_found', `GET ${url}: HTTP ${res.status}`);
  }
  try {
    return await readCapped(res, max);
  } catch (e) {
    throw new GspcError('release_invalid', `GET ${url}: ${fetchFailure(e, FETCH_TIMEOUT_MS)}`);
  }
}

/** A published file, checked against its manifest entry. */
async function getListed(
  base: string,
  manifest: PeritemManifest,
  url: string,
  max: number,
  fetcher: Fetcher,
): Promise<Buffer> {
  const entry = manifest.files.find((f) => f.url === url);
  if (entry === undefined) throw new GspcError('release_invalid', `${base}${url} is not in /peritem/manifest.json`);
  const bytes = await get(base, url, max, fetcher);
  if (sha256Hex(bytes) !== entry.sha256)
    throw new GspcError('release_invalid', `${base}${url}: its SHA-256 is not the one /peritem/manifest.json lists`);
  return bytes;
}

function parsed<T>(file: string, r: { ok: true; value: T } | { ok: false; problems: { reason: string }[] }): T {
  if (r.ok) return r.value;
  throw new GspcError('release_invalid', `${file}: ${r.problems.map((p) => p.reason).join('; ')}`);
}

export async function serviceInput(baseUrl: string, fetcher: Fetcher = fetch): Promise<ExportInput> {
  if (!/^https?:\/\//.test(baseUrl)) throw new GspcError('bad_query', `${baseUrl}: not an http(s) base URL`);
  // The service's public paths are at its origin; only that origin is ever asked.
  const base = new URL(baseUrl).origin;
  const board = JSON.parse((await get(base, '/api/gspc', MAX_JSON_BYTES, fetcher)).toString('utf8')) as {
    issuer: string;
    measured_on: { peritem_sha256: string };
    axes: AxisRow[];
  };
  const manifestBytes = await get(base, '/peritem/manifest.json', MAX_JSON_BYTES, fetcher);
  if (sha256Hex(manifestBytes) !== board.measured_on.peritem_sha256)
    throw new GspcError(
      'release_invalid',
      `${base}/peritem/manifest.json does not hash to the board's measured_on.peritem_sha256: the rows are not the board's`,
    );
  const manifest = JSON.parse(manifestBytes.toString('utf8')) as PeritemManifest;
  const meta = parsed(
    '/peritem/board.json',
    parseJsonFile(
      'board.json',
      (await getListed(base, manifest, '/peritem/board.json', MAX_JSON_BYTES, fetcher)).toString('utf8'),
      boardFileSchema,
    ),
  );
  // How each model was run (issue 40), when the release publishes a runs.json: checked like every file.
  const runs = manifest.files.some((f) => f.url === '/peritem/runs.json')
    ? parsed(
        '/peritem/runs.json',
        parseJsonFile(
          'runs.json',
          (await getListed(base, manifest, '/peritem/runs.json', MAX_JSON_BYTES, fetcher)).toString('utf8'),
          runsFileSchema,
        ),
      ).runs
    : [];
  const axes: ExportAxis[] = [];
  const skipped: string[] = [];
  for (const row of board.axes) {
    if (row.kind !== 'model-comparison') continue;
    const rowsUrl = `/peritem/${row.axis}.jsonl`;
    if (row.status !== 'MEASURED') {
      skipped.push(`${row.axis}: ${row.status}, so the board has no cells on it`);
      continue;
    }
    if (!manifest.files.some((f) => f.url === rowsUrl)) {
      skipped.push(`${row.axis}: aggregate results only, no per-item rows to export`);
      continue;
    }
    const defUrl = `/peritem/axes/${row.axis}.json`;
    const defText = (await getListed(base, manifest, defUrl, MAX_JSON_BYTES, fetcher)).toString('utf8');
    const def = parsed(defUrl, parseJsonFile(defUrl, defText, axisFileSchema)) as ModelComparisonAxis;
    const bytes = await getListed(base, manifest, rowsUrl, MAX_ROWS_BYTES, fetcher);
    const { table, problems } = readPerItemRows(rowsUrl, bytes, def);
    parsed(rowsUrl, problems.length === 0 ? { ok: true, value: null } : { ok: false, problems });
    const cells = deriveComparisonRow(def, table, meta.own_models).cells ?? [];
    const leader = cells.find((c) => c.model === row.leader);
    if (row.leader !== undefined && leader?.accuracy !== row.accuracy)
      throw new GspcError(
        'release_invalid',
        `${base}/api/gspc: ${row.axis}'s leader ${row.leader} is served with accuracy ${row.accuracy}, but its per-item rows give ${leader?.accuracy}`,
      );
    const settings = new Map<string, RunSettings>(
      runs.filter((r) => r.axis === row.axis).map(({ model, axis: _, ...s }) => [model, s as RunSettings]),
    );
    axes.push({
      def,
      rowsUrl: `${base}${rowsUrl}`,
      rows: exportRows(bytes, rowsUrl),
      cells,
      ...(settings.size > 0 && { settings }),
    });
  }
  return {
    origin: base,
    as_of: manifest.as_of,
    issuer: board.issuer,
    peritem_sha256: board.measured_on.peritem_sha256,
    axes,
    skipped,
  };
}
