/**
 * What tells the monitor that a view must be verified in full again (issue 36): one SHA-256 over
 * the release documents the view serves. A view can change its board, root, corrections or keys
 * without changing its checkpoint (a static copy with `/api/gspc` edited, a correction file
 * removed, a DID document that doubles a key id), and a monitor that re-verified only on a new
 * checkpoint said `ok` to all three. With the digest remembered per view, any changed byte of
 * these documents runs the whole `gspc verify` again.
 */
import { createHash } from 'node:crypto';
import { CAP, expect, parseJson, type BoundedGet } from './monitor-fetch.js';

/**
 * The documents of a release a reader relies on (MT5). `/log/entries.json` is one: a poll that
 * reads the log by its tiles does not read it, so a view that changes it is verified in full
 * again, and an unchanged one costs a 304. `/log/checkpoint` is not: the monitor verifies it
 * itself every poll (its signature, and the log's growth from the one verified before), and a
 * publish changes the release documents beside it.
 */
export const RELEASE_DOCUMENTS = [
  '/log/entries.json',
  '/.well-known/did.json',
  '/keys/transitions.json',
  '/root.json',
  '/api/gspc',
  '/api/corrections',
  '/cards-bundle.json',
  '/ledgers/withdrawals.json',
  '/ledgers/supersessions.json',
  '/interop/root-witness-latest.json',
  '/interop/card-root-latest.json',
  '/peritem/manifest.json',
] as const;

/**
 * How many bytes of the files the per-item manifest lists are read each poll: the corrections,
 * status files, axis definitions and, on a board of ordinary size, the per-item rows too. Files
 * beyond it (a board whose rows run to many MiB) are checked by each full verification only.
 */
export const MANIFEST_BUDGET = 16 * 1024 * 1024;

/**
 * The digest of what `get` serves now. A document that is absent, or longer than its manifest
 * says, changes the digest as surely as an edited byte does; the full verification then says
 * what is wrong with it.
 */
export async function releaseDigest(get: BoundedGet): Promise<string> {
  const hash = createHash('sha256');
  const add = (path: string, bytes: Buffer | undefined | 'over') => {
    hash.update(`${path}\n`);
    hash.update(bytes === undefined ? 'absent\n' : bytes === 'over' ? 'over its stated length\n' : `${bytes.length}\n`);
    if (Buffer.isBuffer(bytes)) hash.update(bytes);
  };
  let manifest: Buffer | undefined;
  for (const path of RELEASE_DOCUMENTS) {
    const bytes = await get(path, path === '/.well-known/did.json' ? CAP.did : CAP.document);
    add(path, bytes);
    if (path === '/peritem/manifest.json') manifest = bytes;
  }
  if (manifest === undefined) return hash.digest('hex');
  const doc = parseJson(manifest, '/peritem/manifest.json') as { files?: unknown } | null;
  const files = doc?.files;
  expect(Array.isArray(files), '/peritem/manifest.json', 'has no files list');
  let spent = 0;
  for (const f of files as { url?: unknown; bytes?: unknown }[]) {
    const path = f?.url;
    const stated = f?.bytes;
    expect(
      typeof path === 'string' && path.startsWith('/') && Number.isSafeInteger(stated) && (stated as number) >= 0,
      '/peritem/manifest.json',
      'lists a file without a path and a length',
    );
    spent += stated as number;
    if (spent > MANIFEST_BUDGET) break;
    // One byte over the stated length is enough to know it is not the file the manifest lists.
    const bytes = await get(path as string, (stated as number) + 1).catch((e: Error & { alert?: string }) => {
      if (e.alert === 'view_oversized') return 'over' as const;
      throw e;
    });
    add(path as string, bytes);
  }
  return hash.digest('hex');
}
