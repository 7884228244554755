/**
 * An Atom 1.0 document (RFC 4287) written with a general XML writer (fast-xml-builder), which
 * escapes every text and attribute value; characters XML 1.0 forbids are replaced first (decision
 * FD1: the `feed` library types every title and content `html` in CDATA and has no plain-text
 * form; xmlbuilder2 leaves `&amp;` and `&lt;` in a value unescaped, so `evil/&lt;b&gt;` would
 * reach a reader as `<b>`). Titles are `type="text"`; content is `type="html"` built here from
 * blocks whose every string is escaped, with line breaks as markup, so a reader shows the lines
 * and no corpus string (a model id, an axis name, a correction's text) can become an element.
 */
import XMLBuilder from 'fast-xml-builder';

const ATOM_NS = 'http://www.w3.org/2005/Atom';

/** A block of an entry's content: a paragraph, or a list of lines. */
type ContentBlock = { p: string } | { ul: readonly string[] };

export interface AtomLink {
  href: string;
  rel: 'alternate' | 'self';
  type?: string;
}

export interface AtomEntry {
  id: string;
  /** Plain text. */
  title: string;
  updated: Date;
  link: AtomLink;
  content: readonly ContentBlock[];
}

export interface AtomFeed {
  id: string;
  /** Plain text. */
  title: string;
  /** The one author of the feed and of every entry (RFC 4287 §4.2.1: entries inherit it). */
  author: { name: string; uri: string };
  links: readonly AtomLink[];
  generator: string;
  /** Newest first; the feed's `updated` is the first one's (or `emptyUpdated` when none). */
  entries: readonly AtomEntry[];
  emptyUpdated: Date;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text: escaped (the pages' rule, src/pages/html.ts), each line break a `<br />`. */
function htmlText(s: string): string {
  return s
    .replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)
    .split(/\r\n|\r|\n/)
    .join('<br />');
}

/** The HTML of an entry's content; the XML writer escapes it once more as the element's text. */
function contentHtml(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((b) =>
      'p' in b ? `<p>${htmlText(b.p)}</p>` : `<ul>${b.ul.map((line) => `<li>${htmlText(line)}</li>`).join('')}</ul>`,
    )
    .join('');
}

/** RFC 3339 in UTC with milliseconds (what `toISOString` writes). */
const rfc3339 = (d: Date) => d.toISOString();

/** Characters outside XML 1.0's Char production (controls, lone surrogates, U+FFFE/U+FFFF) as U+FFFD. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const xmlChars = (s: string) => s.replace(NOT_XML_CHAR, '\uFFFD');

type Node = { [name: string]: string | Node | Node[] };
/** An element with text (`#text`) and attributes (`@name`), every value made XML characters. */
const el = (text: string | undefined, attrs: Record<string, string | undefined> = {}): Node => {
  const node: Node = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) node[`@${k}`] = xmlChars(v);
  if (text !== undefined) node['#text'] = xmlChars(text);
  return node;
};
const link = (l: AtomLink) => el(undefined, { rel: l.rel, type: l.type, href: l.href });

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  format: true,
  suppressEmptyNode: true,
});

export function writeAtom(feed: AtomFeed): string {
  const entries = feed.entries.map((e) => ({
    id: el(e.id),
    title: el(e.title, { type: 'text' }),
    updated: el(rfc3339(e.updated)),
    link: link(e.link),
    content: el(contentHtml(e.content), { type: 'html' }),
  }));
  const doc = {
    feed: {
      '@xmlns': ATOM_NS,
      id: el(feed.id),
      title: el(feed.title, { type: 'text' }),
      updated: el(rfc3339(feed.entries[0]?.updated ?? feed.emptyUpdated)),
      author: { name: el(feed.author.name), uri: el(feed.author.uri) },
      link: feed.links.map(link),
      generator: el(feed.generator),
      entry: entries,
    },
  };
  return `<?xml version="1.0" encoding="utf-8"?>\n${builder.build(doc)}`;
}
