/**
 * The status documents' only way out: a fixed path on an origin the operator configured (never
 * a URL from a request), with a deadline, no redirects (they could leave the origin) and a cap
 * on the bytes read.
 */

/** A URL for a fixed path on `origin`; throws if the path would leave it. */
export function sameOriginUrl(origin: string, path: string): string {
  const base = new URL(origin);
  const url = new URL(path, base);
  if (url.origin !== base.origin) throw new Error(`${path} is not on the origin ${base.origin}`);
  return url.href;
}

/** Reads a response body, failing once it exceeds `max` bytes (without reading the rest). */
export async function readCapped(res: Response, max: number): Promise<Buffer> {
  if (res.body === null) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) throw new Error(`body larger than ${max} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** A short reason for a failed read: 'timeout after N ms', the system error code, or the message. */
export function fetchFailure(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `timeout after ${timeoutMs} ms`;
  if (e.cause?.code) return e.cause.code;
  return e.cause?.message ?? e.message ?? String(err);
}
