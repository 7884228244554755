/**
 * The entries of a ZIP archive, one at a time, from its central directory (yauzl with lazy
 * entries): an `.eval` log can hold a million samples, so nothing here ever holds more than the
 * one entry being read (and window-reader.ts's few cached blocks of the file). Inspect writes entries with deflate (method 8) and, since 0.3.206, with
 * zstd (method 93). Entries are read raw through yauzl; deflate is inflated by node:zlib in one
 * synchronous call per entry (a zlib stream per entry costs thread-pool round trips that
 * dominated reading 100,000 small samples), zstd by fzstd's streaming decoder; both are then
 * checked against the size and CRC-32 of the central directory. An entry's compressed bytes are
 * read straight from the window reader's cached blocks at the data offset yauzl finds in its local
 * header (`readLocalFileHeaderPromise`, bounds-checked), not through a read stream: a stream per
 * entry, with its promises and ticks, cost more than inflating the entry.
 */
import { open } from 'node:fs/promises';
import { crc32, inflateRawSync } from 'node:zlib';
import { decompress } from 'fzstd';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { GspcError } from '../../core/errors.js';
import { WindowReader } from './window-reader.js';

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
  const handle = await open(file, 'r');
  let zip: ZipFile;
  let reader: WindowReader;
  try {
    const { size } = await handle.stat();
    reader = new WindowReader(handle, size);
    zip = await yauzl.fromRandomAccessReaderPromise(reader, size, { lazyEntries: true, autoClose: false });
  } catch (e) {
    await handle.close();
    throw new GspcError('import_refused', `${file}: not a readable ZIP archive (${(e as Error).message})`);
  }
  try {
    for await (const entry of zip.eachEntry()) {
      yield { name: entry.fileName, read: () => readEntry(zip, reader, entry, file) };
    }
  } finally {
    zip.close();
  }
}

async function readEntry(zip: ZipFile, reader: WindowReader, entry: Entry, file: string): Promise<Buffer> {
  const where = `${file}!${entry.fileName}`;
  const method = entry.compressionMethod;
  if (entry.isEncrypted()) throw new GspcError('import_refused', `${where}: an encrypted ZIP entry cannot be read`);
  try {
    if (method === STORED || method === DEFLATE || method === ZSTD) {
      const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
      const raw = await reader.bytes(fileDataStart, entry.compressedSize);
      if (method === STORED) return checked(raw, entry);
      return checked(method === DEFLATE ? inflateRawSync(raw) : Buffer.from(decompress(raw)), entry);
    }
  } catch (e) {
    throw new GspcError('import_refused', `${where}: cannot decompress the entry (${(e as Error).message})`);
  }
  throw new GspcError(
    'import_refused',
    `${where}: ZIP compression method ${method} is not one Inspect writes (deflate 8 or zstd 93)`,
  );
}

/** The size and CRC-32 the central directory states, checked (yauzl checks neither on raw reads). */
function checked(bytes: Buffer, entry: Entry): Buffer {
  if (bytes.length !== entry.uncompressedSize)
    throw new Error(`decoded ${bytes.length} bytes where the directory states ${entry.uncompressedSize}`);
  if (crc32(bytes) !== entry.crc32) throw new Error('CRC-32 mismatch');
  return bytes;
}
