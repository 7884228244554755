/**
 * Why a `fetch` threw, in words an operator can act on (issue 39). Node's fetch (undici) throws
 * a TypeError whose message is only "fetch failed"; the reason is its `cause`: a system error
 * with a code (ECONNREFUSED, ENOTFOUND, ETIMEDOUT, a TLS certificate code), undici's own
 * UND_ERR_*, or an AggregateError of one per address tried. The monitor's alerts and
 * `gspc witness --submit` say this, with what was fetched and from where, never "fetch failed".
 */

interface Cause {
  code?: unknown;
  message?: unknown;
  errors?: readonly { code?: unknown; message?: unknown }[];
}

const MEANING: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused: nothing listens at that address and port',
  ENOTFOUND: 'the host name does not resolve (DNS)',
  EAI_AGAIN: 'the host name could not be resolved for now (DNS)',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed while sending',
  UND_ERR_SOCKET: 'the other side closed the connection',
  UND_ERR_CLOSED: 'the connection was closed',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stalled',
};

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The reason a fetch failed: what the code means, then the underlying error as Node gives it. */
export function fetchFailure(e: unknown): string {
  const err = (typeof e === 'object' && e !== null ? e : {}) as { name?: unknown; message?: unknown; cause?: Cause };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no whole answer in time (${text(err.message)})`;
  const cause = typeof err.cause === 'object' && err.cause !== null ? err.cause : undefined;
  const first = cause?.errors?.[0];
  const code = text(cause?.code) ?? text(first?.code);
  const detail = text(cause?.message) ?? text(first?.message) ?? text(err.message) ?? String(e);
  const withCode = code === undefined || detail.includes(code) ? detail : `${code}: ${detail}`;
  const meaning =
    code === undefined
      ? undefined
      : (MEANING[code] ?? (/CERT|TLS|SSL/.test(code) ? 'its TLS certificate was refused' : undefined));
  return meaning === undefined ? withCode : `${meaning} (${withCode})`;
}
