/** Reading a served document's bytes as JSON, browser-safe: strict UTF-8, and undefined for anything that is not JSON. */
const decoder = new TextDecoder('utf-8', { fatal: true });

export function parseJsonBytes(bytes: Uint8Array | undefined): unknown {
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
