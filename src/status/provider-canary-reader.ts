/**
 * Reads the provider canary adapter: the observation file the operator's runner writes
 * (GSPC_PROVIDER_CANARY_FILE), once per request, never more than CANARY_MAX_BYTES. Why a file
 * could not be read becomes a value (`unreadable` with the reason), never a thrown error: the
 * document reports it (src/core/status/provider-canary.ts).
 */
import { open } from 'node:fs/promises';
import { CANARY_MAX_BYTES, type CanaryFileRead } from '../core/status/provider-canary.js';

/** `path` comes from the operator's configuration only, never from a request. */
export async function readCanaryFile(path: string | null): Promise<CanaryFileRead> {
  if (path === null) return { kind: 'unconfigured' };
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (e) {
    return { kind: 'unreadable', reason: (e as NodeJS.ErrnoException).code ?? 'open failed' };
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { kind: 'unreadable', reason: 'not a regular file' };
    if (st.size > CANARY_MAX_BYTES)
      return {
        kind: 'unreadable',
        reason: `${st.size} bytes, over the ${CANARY_MAX_BYTES}-byte limit (rotate the file)`,
      };
    // Read at most one byte past the limit, in case the runner grew the file after stat.
    const buf = Buffer.allocUnsafe(CANARY_MAX_BYTES + 1);
    let n = 0;
    while (n < buf.length) {
      const { bytesRead } = await fh.read(buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    if (n > CANARY_MAX_BYTES)
      return { kind: 'unreadable', reason: `over the ${CANARY_MAX_BYTES}-byte limit (rotate the file)` };
    return { kind: 'read', bytes: buf.subarray(0, n) };
  } catch (e) {
    return { kind: 'unreadable', reason: (e as NodeJS.ErrnoException).code ?? 'read failed' };
  } finally {
    await fh.close();
  }
}
