/**
 * The entries of a ZIP archive, one at a time, from its central directory (yauzl with lazy
 * entries): an `.eval` log can hold a million samples, so nothing here ever holds more than the
 * one entry being read. Inspect writes entries with deflate (method 8) and, since 0.3.206, with
 * zstd (method 93); yauzl inflates deflate through node:zlib and checks the size, and zstd
 * entries are read raw and decoded by fzstd's streaming decoder.
 */
import type { Readable } from 'node:stream';
import { Decompress } from 'fzstd';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { GspcError } from '../../core/errors.js';

const STORED = 0;
const DEFLATE = 8;
const ZSTD = 93;

export interface ZipEntry {
  name: string;
  /** Decompresses this entry only (call it at most once, before moving to the next entry). */
  read(): Promise<Buffer>;
}

/** Every entry of the archive, in central-directory order; the archive is closed when iteration ends. */
export async function* zipEntries(file: string): AsyncGenerator<ZipEntry> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (e) {
    throw new GspcError('import_refused', `${file}: not a readable ZIP archive (${(e as Error).message})`);
  }
  try {
    for await (const entry of zip.eachEntry()) {
      yield { name: entry.fileName, read: () => readEntry(zip, entry, file) };
    }
  } finally {
    zip.close();
  }
}

async function readEntry(zip: ZipFile, entry: Entry, file: string): Promise<Buffer> {
  const where = `${file}!${entry.fileName}`;
  const method = entry.compressionMethod;
  try {
    if (method === STORED || method === DEFLATE) return await collect(await zip.openReadStreamPromise(entry));
    if (method === ZSTD) return await unzstd(await zip.openReadStreamPromise(entry, { decodeFileData: false }), entry);
  } catch (e) {
    throw new GspcError('import_refused', `${where}: cannot decompress the entry (${(e as Error).message})`);
  }
  throw new GspcError(
    'import_refused',
    `${where}: ZIP compression method ${method} is not one Inspect writes (deflate 8 or zstd 93)`,
  );
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Decodes a zstd entry as its compressed bytes arrive, and checks the size the directory states
 * (yauzl checks it for deflate; for raw reads it cannot). */
async function unzstd(raw: Readable, entry: Entry): Promise<Buffer> {
  const out: Uint8Array[] = [];
  const decoder = new Decompress((chunk) => {
    out.push(chunk);
  });
  for await (const chunk of raw) decoder.push(chunk as Uint8Array);
  decoder.push(new Uint8Array(0), true);
  const bytes = Buffer.concat(out);
  if (bytes.length !== entry.uncompressedSize)
    throw new Error(`decoded ${bytes.length} bytes where the directory states ${entry.uncompressedSize}`);
  return bytes;
}
