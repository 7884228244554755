/**
 * The one JSON body parser of every route: Fastify's own (secure-json-parse, which refuses
 * `__proto__` and `constructor.prototype` keys), behind a nesting bound checked on the raw text
 * before anything parses it. Why: a body nested 5,000 deep parsed, and then overflowed the stack
 * of the MCP SDK's request conversion (HTTP 500, found by the MCP conformance work of issue 28).
 * No document this service reads is nested more than a dozen levels; the bound refuses the
 * request at the door, so no library behind any route ever sees such a body.
 *
 * The scan is hand-written (decision T3): JSON's nesting is the count of `[`/`{` not inside a
 * string, one linear pass over the text, and no maintained package bounds depth before parsing.
 */
import type { FastifyInstance } from 'fastify';

/** The deepest nesting of arrays and objects a request body may have. */
export const MAX_JSON_DEPTH = 64;

/** The error a too-deep body raises: a client error (400) that each route answers in its own shape. */
export class JsonTooDeepError extends Error {
  readonly statusCode = 400;
  readonly code = 'GSPC_JSON_TOO_DEEP';
  constructor() {
    super(`the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
}

/** Whether `text`'s arrays and objects nest deeper than `max` (strings and escapes skipped). */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Replaces the app's `application/json` parser with the bounded one (module doc). */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (nestedDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(new JsonTooDeepError(), undefined);
      return;
    }
    parse(req, body as string, done);
  });
}
