/**
 * Every same-origin link (`href`, `src`) of the given pages, fetched once each, redirects
 * followed: the ones that do not answer 200, with the page that links them. Links to another
 * origin (a mirror's links to the origin) are not followed.
 */
export async function brokenLinks(base: string, pages: readonly string[]) {
  const origin = new URL(base).origin;
  const seen = new Map<string, { status: number; from: string }>();
  for (const page of pages) {
    const html = await (await fetch(`${base}${page}`)).text();
    for (const m of html.matchAll(/\b(?:href|src)="([^"]+)"/g)) {
      const link = new URL(m[1]!.replaceAll('&amp;', '&'), `${base}${page}`);
      if (link.origin !== origin || seen.has(link.pathname + link.search)) continue;
      const res = await fetch(link);
      await res.arrayBuffer(); // read to the end: a plain HTTP/1.0 server closes the connection after it
      seen.set(link.pathname + link.search, { status: res.status, from: page });
    }
  }
  return {
    checked: seen.size,
    broken: [...seen].filter(([, v]) => v.status !== 200).map(([link, v]) => `${v.status} ${link} (on ${v.from})`),
  };
}

/** A mirrored page with its links to the origin made root-relative again: the service's page, if nothing else changed. */
export const withOriginLinksRelative = (body: Buffer, origin: string): Buffer =>
  Buffer.from(
    body
      .toString('utf8')
      .replaceAll(/\b(href|src)="https?:\/\/[^/"]+(\/[^"]*)"/g, (whole, attr, path) =>
        whole.includes(`"${origin}/`) ? `${attr}="${path}"` : whole,
      ),
    'utf8',
  );
