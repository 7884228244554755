/**
 * Strict query-string reading: only the documented parameters, each at most once. A query
 * the service cannot read unambiguously is a 400 rather than a guess.
 */
import { GspcError } from '../core/errors.js';

const MAX_VALUE = 200;

/**
 * `blankable`: parameters an HTML form sends empty when a field is left blank (the model filter's):
 * an empty one is read as not given. Any other empty parameter is refused.
 * `longer`: parameters that may exceed {@link MAX_VALUE}, with their own limit: an id the corpus
 * allows to be longer (an item id, up to 512 characters) must be askable where a page links it.
 */
export function readQuery(
  url: string,
  allowed: readonly string[],
  blankable: readonly string[] = [],
  longer: Readonly<Record<string, number>> = {},
): Map<string, string> {
  const q = url.indexOf('?');
  const out = new Map<string, string>();
  const seen = new Set<string>();
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
    if (seen.has(key)) throw new GspcError('bad_query', `query parameter '${key}' is given more than once`);
    seen.add(key);
    if (value === '') {
      if (blankable.includes(key)) continue;
      throw new GspcError('bad_query', `query parameter '${key}' is empty`);
    }
    const max = longer[key] ?? MAX_VALUE;
    if (value.length > max)
      throw new GspcError('bad_query', `query parameter '${key}' is longer than ${max} characters`);
    out.set(key, value);
  }
  return out;
}
