/**
 * RFC 4287's rules for an Atom feed document, checked on the XML as a strict, namespace-aware
 * parser reads it (saxes: a document that is not well-formed XML 1.0 throws). What a schema
 * cannot say is checked too: an author on the feed or on every entry, one id/title/updated, text
 * construct types, RFC 3339 dates with an upper-case T and Z. Beyond the RFC, for this service:
 * entries newest first. Returns the rules broken, in words ([] when none).
 */
import { SaxesParser } from 'saxes';

export const ATOM_NS = 'http://www.w3.org/2005/Atom';

export interface XmlElement {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (CDATA included), not its children's. */
  text: string;
  /** Its text and child elements in document order. */
  inner: (string | XmlElement)[];
}

/** A strict parse (throws on any well-formedness or namespace error). */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('error', (e) => {
    throw e;
  });
  parser.on('opentag', (tag) => {
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes))
      if (a.prefix !== 'xmlns' && a.name !== 'xmlns') attrs[a.name] = a.value;
    const el: XmlElement = { ns: tag.uri, name: tag.local, attrs, children: [], text: '', inner: [] };
    stack.at(-1)?.children.push(el);
    stack.at(-1)?.inner.push(el);
    root ??= el;
    stack.push(el);
  });
  const text = (t: string) => {
    const el = stack.at(-1);
    if (el === undefined) return;
    el.text += t;
    el.inner.push(t);
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  if (root === undefined) throw new Error('no root element');
  return root;
}

/** The text of an element and all inside it, in order; `br` elements as line breaks. */
export function textOf(el: XmlElement): string {
  return el.inner.map((x) => (typeof x === 'string' ? x : x.name === 'br' ? '\n' : textOf(x))).join('');
}

/** Every element of a tree, depth first. */
export function allElements(el: XmlElement): XmlElement[] {
  return [el, ...el.children.flatMap(allElements)];
}

const FEED_CHILDREN = new Set([
  'author',
  'category',
  'contributor',
  'generator',
  'icon',
  'id',
  'link',
  'logo',
  'rights',
  'subtitle',
  'title',
  'updated',
  'entry',
]);
const ENTRY_CHILDREN = new Set([
  'author',
  'category',
  'content',
  'contributor',
  'id',
  'link',
  'published',
  'rights',
  'source',
  'summary',
  'title',
  'updated',
]);
const TEXT_CONSTRUCTS = new Set(['title', 'subtitle', 'rights', 'summary']);
const DATE_CONSTRUCTS = new Set(['updated', 'published']);
/** RFC 3339 date-time, with RFC 4287 §3.3's upper-case T and Z. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const IRI = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;
const MIME = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;

const atom = (el: XmlElement, name: string) => el.children.filter((c) => c.ns === ATOM_NS && c.name === name);

/** The text of the one Atom child `name` of `el` (undefined when there is not exactly one). */
export function atomText(el: XmlElement, name: string): string | undefined {
  const found = atom(el, name);
  return found.length === 1 ? found[0]!.text : undefined;
}

function checkTextConstruct(el: XmlElement, where: string, problems: string[], content: boolean): void {
  const type = el.attrs.type;
  const allowed = type === undefined || type === 'text' || type === 'html' || type === 'xhtml';
  if (!allowed && !(content && MIME.test(type))) problems.push(`${where}: type "${type}" is not text, html or xhtml`);
  if ((type === undefined || type === 'text' || type === 'html') && el.children.length > 0)
    problems.push(`${where}: a ${type ?? 'text'} construct has child elements`);
  if (type === 'xhtml') {
    const [div, ...more] = el.children;
    if (div?.ns !== 'http://www.w3.org/1999/xhtml' || div.name !== 'div' || more.length > 0)
      problems.push(`${where}: xhtml content is not one xhtml:div`);
  }
}

function checkPerson(el: XmlElement, where: string, problems: string[]): void {
  if (atom(el, 'name').length !== 1) problems.push(`${where}: a person construct has no one atom:name`);
  for (const uri of atom(el, 'uri'))
    if (!IRI.test(uri.text)) problems.push(`${where}: uri "${uri.text}" is not an IRI`);
}

function checkLinks(el: XmlElement, where: string, problems: string[]): void {
  const alternates = new Set<string>();
  for (const link of atom(el, 'link')) {
    if (link.attrs.href === undefined) problems.push(`${where}: atom:link has no href`);
    if ((link.attrs.rel ?? 'alternate') !== 'alternate') continue;
    const key = `${link.attrs.type ?? ''} ${link.attrs.hreflang ?? ''}`;
    if (alternates.has(key)) problems.push(`${where}: two alternate links of one type and hreflang`);
    alternates.add(key);
  }
}

/** The rules an atom:feed or atom:entry shares: its children, their counts and constructs. */
function checkContainer(el: XmlElement, where: string, problems: string[], allowed: ReadonlySet<string>): void {
  for (const c of el.children)
    if (c.ns === ATOM_NS && !allowed.has(c.name)) problems.push(`${where}: atom:${c.name} is not allowed here`);
  for (const one of ['id', 'title', 'updated'])
    if (atom(el, one).length !== 1) problems.push(`${where}: ${atom(el, one).length} atom:${one}, not exactly one`);
  for (const atMostOne of [
    'generator',
    'icon',
    'logo',
    'rights',
    'subtitle',
    'content',
    'published',
    'source',
    'summary',
  ])
    if (atom(el, atMostOne).length > 1) problems.push(`${where}: more than one atom:${atMostOne}`);
  for (const id of atom(el, 'id')) if (!IRI.test(id.text)) problems.push(`${where}: id "${id.text}" is not an IRI`);
  for (const c of el.children.filter((x) => x.ns === ATOM_NS)) {
    if (TEXT_CONSTRUCTS.has(c.name)) checkTextConstruct(c, `${where} atom:${c.name}`, problems, false);
    if (c.name === 'content') checkTextConstruct(c, `${where} atom:content`, problems, true);
    if (DATE_CONSTRUCTS.has(c.name) && !(RFC3339.test(c.text) && !Number.isNaN(Date.parse(c.text))))
      problems.push(`${where}: atom:${c.name} "${c.text}" is not an RFC 3339 date-time`);
    if (c.name === 'author' || c.name === 'contributor') checkPerson(c, `${where} atom:${c.name}`, problems);
  }
  checkLinks(el, where, problems);
}

export function atomViolations(xml: string): string[] {
  const problems: string[] = [];
  const feed = parseXml(xml);
  if (feed.ns !== ATOM_NS || feed.name !== 'feed') return [`the root element is not atom:feed`];
  checkContainer(feed, 'atom:feed', problems, FEED_CHILDREN);
  if (!atom(feed, 'link').some((l) => l.attrs.rel === 'self'))
    problems.push('atom:feed: no link rel="self" (RFC 4287 §4.1.1 SHOULD)');
  const entries = atom(feed, 'entry');
  const feedHasAuthor = atom(feed, 'author').length > 0;
  entries.forEach((entry, i) => {
    const where = `atom:entry[${i}] (${atomText(entry, 'id') ?? '?'})`;
    checkContainer(entry, where, problems, ENTRY_CHILDREN);
    const sourceAuthor = atom(entry, 'source').some((s) => atom(s, 'author').length > 0);
    if (!feedHasAuthor && atom(entry, 'author').length === 0 && !sourceAuthor)
      problems.push(`${where}: no atom:author here, in its source or on the feed`);
    if (
      atom(entry, 'content').length === 0 &&
      !atom(entry, 'link').some((l) => (l.attrs.rel ?? 'alternate') === 'alternate')
    )
      problems.push(`${where}: no atom:content and no alternate link`);
  });
  const times = entries.map((e) => Date.parse(atomText(e, 'updated') ?? ''));
  for (let i = 1; i < times.length; i++)
    if (times[i]! > times[i - 1]!)
      problems.push(`atom:entry[${i}] is newer than the entry before it (not newest first)`);
  return problems;
}
