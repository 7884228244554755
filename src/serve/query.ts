/**
 * Strict query-string reading: only the documented parameters, each at most once. A query
 * the service cannot read unambiguously is a 400 rather than a guess.
 */
import { GspcError } from '../core/errors.js';

const MAX_VALUE = 200;

export function readQuery(url: string, allowed: readonly string[]): Map<string, string> {
  const q = url.indexOf('?');
  const out = new Map<string, string>();
  if (q === -1) return out;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(url.slice(q + 1));
  } catch {
    throw new GspcError('bad_query', 'the query string is malformed');
  }
  for (const [key, value] of params) {
    if (!allowed.includes(key))
      throw new GspcError('bad_query', `unknown query parameter '${key.slice(0, 50)}'`, { allowed: [...allowed] });
    if (out.has(key)) throw new GspcError('bad_query', `query parameter '${key}' is given more than once`);
    if (value === '') throw new GspcError('bad_query', `query parameter '${key}' is empty`);
    if (value.length > MAX_VALUE)
      throw new GspcError('bad_query', `query parameter '${key}' is longer than ${MAX_VALUE} characters`);
    out.set(key, value);
  }
  return out;
}
