/**
 * JSON as Python writes it. Inspect serialises with Python, whose `json` module writes the bare
 * tokens `NaN`, `Infinity` and `-Infinity` (upstream's `log_with_nan.txt` has `"value": NaN`),
 * which `JSON.parse` rejects. Decision: parse them, as numbers, rather than refuse the file, so a
 * NaN score reads as unparsed and a NaN aggregate as "not reported" (never as 0).
 * The fast path is plain `JSON.parse`; only a document it rejects is rescanned.
 */
import { GspcError } from '../../core/errors.js';

/** Stands for a bare token while `JSON.parse` runs; a NUL cannot appear unescaped in JSON text. */
const MARK = '\u0000py:';
const TOKENS: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY };

/** Parses `text`, accepting Python's bare NaN/Infinity; `where` names the file or entry in the error. */
export function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (first) {
    const marked = markBareTokens(text);
    if (marked === null) throw notJson(where, first);
    try {
      return JSON.parse(marked, revive);
    } catch (e) {
      throw notJson(where, e);
    }
  }
}

function notJson(where: string, e: unknown): GspcError {
  return new GspcError('import_refused', `${where}: not JSON (${(e as Error).message})`);
}

function revive(_key: string, value: unknown): unknown {
  if (typeof value !== 'string' || !value.startsWith(MARK)) return value;
  const token = value.slice(MARK.length);
  return token.startsWith('-') ? -TOKENS[token.slice(1)]! : TOKENS[token]!;
}

/** Replaces bare NaN / Infinity / -Infinity outside strings by marked strings; null when there are none. */
function markBareTokens(text: string): string | null {
  const parts: string[] = [];
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      continue;
    }
    const token = tokenAt(text, i);
    if (token === null) continue;
    parts.push(text.slice(from, i), JSON.stringify(MARK + token));
    i += token.length - 1;
    from = i + 1;
  }
  if (parts.length === 0) return null;
  parts.push(text.slice(from));
  return parts.join('');
}

function tokenAt(text: string, i: number): string | null {
  for (const token of ['NaN', 'Infinity', '-Infinity']) if (text.startsWith(token, i)) return token;
  return null;
}
