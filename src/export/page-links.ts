/**
 * Links of a mirrored page (issue 31): a page served from a mirror must link only to what that
 * mirror serves, or to the origin by absolute URL, so that no link on it answers 404. The pages
 * link by root-relative path (`/pricing`, `/openapi.json`, `/api/models?axis=jail`); each one the
 * mirror does not serve becomes `<origin><path>`, where the service answers it. The nginx mirror
 * serves the paths with a query; the plain file tree (plain-site.ts) does not, so its pages send
 * those to the origin too.
 */
/** A mirrored path, and whether its query selects the document (else any query gets the same file). */
export interface MirroredPath {
  path: string;
  keyedByQuery: boolean;
}

/** What a mirror answers: `withQueries` for nginx (mirror.json's exact query paths), else a plain file server. */
export function servedBy(paths: readonly MirroredPath[], withQueries: boolean): (target: string) => boolean {
  const exact = new Set(paths.filter((p) => withQueries || !p.path.includes('?')).map((p) => p.path));
  const anyQuery = new Set(paths.filter((p) => !p.keyedByQuery && !p.path.includes('?')).map((p) => p.path));
  return (target) => {
    const bare = target.split('#')[0]!;
    const q = bare.indexOf('?');
    return exact.has(bare) || (q >= 0 && anyQuery.has(bare.slice(0, q)));
  };
}

/** `html` with every root-relative `href`/`src` that `served` refuses pointed at `origin`. */
export function linkUnservedToOrigin(html: string, served: (target: string) => boolean, origin: string): string {
  return html.replace(/\b(href|src)="(\/(?!\/)[^"]*)"/g, (whole, attr: string, target: string) =>
    served(target.replaceAll('&amp;', '&')) ? whole : `${attr}="${origin}${target}"`,
  );
}
