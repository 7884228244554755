/**
 * The page shell shared by the four pages (issue 7): readable without JavaScript, phone-width
 * first, one stylesheet and at most a few small scripts, all from this origin (the
 * Content-Security-Policy forbids anything else).
 */
import { html, type SafeHtml } from './html.js';

export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
} as const;

const NAV: [path: string, label: string][] = [
  ['/dashboard', 'Dashboard'],
  ['/gspc-verify', 'Verify'],
  ['/methodology', 'Methodology'],
  ['/pricing', 'Pricing'],
];

export interface PageOptions {
  title: string;
  /** The page's path, marked as current in the navigation. */
  path: string;
  description: string;
  body: SafeHtml;
  /** Bundled scripts under /assets/ (ES modules), e.g. 'verify.js'. */
  scripts?: readonly string[];
}

export function page(o: PageOptions): string {
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · GSPC board</title>
<meta name="description" content="${o.description}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/site.css">
<link rel="alternate" type="application/atom+xml" title="Releases and corrections" href="/feed.atom">
${(o.scripts ?? []).map((s) => html`<script type="module" src="/assets/${s}"></script>`)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<p class="brand"><a href="/dashboard">GSPC board</a> <span class="tag">measurement, not certification</span></p>
<nav aria-label="Pages"><ul>${NAV.map(([p, label]) => html`<li><a href="${p}"${o.path === p ? html` aria-current="page"` : ''}>${label}</a></li>`)}
<li><a href="/api/gspc">Board JSON</a></li></ul></nav>
</header>
<main id="main">
${o.body}
</main>
<footer class="site"><p>Every number here is read from <a href="/api/gspc">/api/gspc</a> and can be checked without trusting this server: <a href="/gspc-verify">verify the signed cards</a>, or run <code>gspc verify</code>. Every route is described in <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). What changed: <a href="/api/changes">/api/changes</a> and the <a href="/feed.atom">feed</a>.</p></footer>
</body>
</html>`}\n`;
}
