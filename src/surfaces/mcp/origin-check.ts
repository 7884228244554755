/**
 * DNS-rebinding protection of `/mcp` (MCP Streamable HTTP transport: a server MUST validate the
 * Origin header and answer 403 when it is present and invalid). The attack: a page on
 * `evil.example` re-points its own name at the service's address, so the browser sends the
 * page's requests there with `Host: evil.example` and `Origin: http://evil.example`. Both are
 * decided from the configured public origin (decision T2):
 * - `Host` must name the public origin's host, or a loopback name (`localhost`, `127.0.0.1`,
 *   `[::1]`), whatever the port: a rebinding page can only ever send its own name. Behind a
 *   proxy, pass the client's Host on (`proxy_set_header Host $host;` in nginx).
 * - `Origin`, when sent, must be the public origin itself or a loopback origin (a local client
 *   such as an MCP inspector); `Origin: null` (a sandboxed or file page) is refused.
 * Clients that are not browsers send no Origin and the public Host: they are never refused.
 */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host name of a `Host` header value (`name:port`, `[v6]:port`), lower-cased. */
function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

/** Why a request to `/mcp` is refused as a possible DNS rebinding, or undefined when it is not. */
export function rebindingProblem(
  headers: { host?: string | undefined; origin?: string | undefined },
  publicOrigin: string,
): string | undefined {
  const allowed = new URL(publicOrigin);
  const host = headers.host === undefined ? undefined : hostName(headers.host);
  if (host === undefined || (host !== allowed.hostname && !LOOPBACK.has(host)))
    return `the Host header (${headers.host ?? 'none'}) does not name this service (${allowed.host}): refused as a possible DNS rebinding`;
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const ok =
    url !== undefined &&
    (url.origin === allowed.origin ||
      ((url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname)));
  return ok
    ? undefined
    : `the Origin ${origin} is not this service's (${allowed.origin}) nor a local one: refused as a possible DNS rebinding`;
}
