/**
 * docs/methodology.md rendered once, at start, into the pieces the /methodology page lays out:
 * the title (the document's first level-1 heading becomes the page's one h1), the introduction
 * before the first section, a table of contents, and the sections with heading ids for anchors.
 *
 * marked 18 has no switch that turns raw HTML off, so the renderer does it: an HTML block or tag
 * in the Markdown is shown as escaped text, never passed through; a link keeps its href only
 * when it is relative, http(s) or mailto; an image becomes a link to it, never an <img> (the page
 * loads nothing it does not name itself). Tables get `scope="col"` headers, a caption (the
 * section they sit in) and a scrolling wrapper; the wrapper and each code block are scroll regions
 * a keyboard can reach and a screen reader can name (a long line scrolls on a phone).
 */
import { Marked, type Tokens } from 'marked';
import { escapeHtml, SafeHtml } from './html.js';
import { scrollRegionOpen } from './scroll-region.js';

export interface TocEntry {
  id: string;
  /** The heading as inline HTML (code spans kept). */
  html: SafeHtml;
  depth: number;
}

export interface MethodologyDoc {
  /** Plain text of the first level-1 heading (the page title). */
  title: string;
  titleHtml: SafeHtml;
  /** Everything before the first section heading. */
  intro: SafeHtml;
  /** The sections (level-2 headings and below), for the table of contents. */
  toc: TocEntry[];
  body: SafeHtml;
}

/** ids the page itself uses: a heading never takes one of them. */
export const RESERVED_IDS = ['main', 'contents', 'live-counts'] as const;

/** GitHub-style slug: lower case, letters, digits, spaces and hyphens kept, spaces to hyphens. */
export function slugOf(text: string): string {
  return (
    text
      .toLowerCase()
      .trim()
      .replace(/[^\p{L}\p{N}\s-]/gu, '')
      .replace(/\s+/g, '-') || 'section'
  );
}

const SAFE_HREF = /^(https?:\/\/|mailto:|#|\/(?!\/)|\.{1,2}\/|[^:/?#]+(?:[/?#]|$))/i;

export function renderMethodology(markdown: string): MethodologyDoc {
  const used = new Set<string>(RESERVED_IDS);
  const uniqueId = (text: string): string => {
    const base = slugOf(text);
    let id = base;
    for (let i = 1; used.has(id); i++) id = `${base}-${i}`;
    used.add(id);
    return id;
  };
  const toc: TocEntry[] = [];
  let title: { text: string; html: string } | undefined;
  let section = '';
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      html({ text, block }: Tokens.HTML | Tokens.Tag) {
        return block ? `<p>${escapeHtml(text.trim())}</p>\n` : escapeHtml(text);
      },
      heading({ tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        const text = this.parser.parseInline(tokens, this.parser.textRenderer).trim();
        // The first level-1 heading, before any section, is the page's h1 (the page renders it);
        // a later level-1 heading is a section like the others.
        if (depth === 1 && title === undefined && toc.length === 0) {
          title = { text, html: inner };
          return '';
        }
        const level = Math.max(2, depth);
        const id = uniqueId(text);
        section = text;
        toc.push({ id, html: new SafeHtml(inner), depth: level });
        return `<h${level} id="${id}">${inner}</h${level}>\n`;
      },
      table(token: Tokens.Table) {
        const cell = (c: Tokens.TableCell, tag: 'th' | 'td') => {
          // Alignment as a class: the page's CSP allows no inline style.
          const align = c.align ? ` class="align-${c.align}"` : '';
          return `<${tag}${tag === 'th' ? ' scope="col"' : ''}${align}>${this.parser.parseInline(c.tokens)}</${tag}>`;
        };
        const head = `<tr>${token.header.map((c) => cell(c, 'th')).join('')}</tr>`;
        const rows = token.rows.map((r) => `<tr>${r.map((c) => cell(c, 'td')).join('')}</tr>`).join('\n');
        const caption = `<caption>${escapeHtml(section || 'Table')}</caption>`;
        return `${scrollRegionOpen(`Table: ${section || 'introduction'}`)}<table>${caption}<thead>${head}</thead><tbody>${rows}</tbody></table></div>\n`;
      },
      code({ text, lang }: Tokens.Code) {
        const language = /^\S+/.exec(lang ?? '')?.[0];
        const label = `Code${language ? ` (${language})` : ''}: ${section || 'introduction'}`;
        return `<pre tabindex="0" role="region" aria-label="${escapeHtml(label)}"><code${language ? ` class="language-${escapeHtml(language)}"` : ''}>${escapeHtml(text)}\n</code></pre>\n`;
      },
      link({ href, title: linkTitle, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens);
        if (!SAFE_HREF.test(href)) return inner;
        return `<a href="${escapeHtml(href)}"${linkTitle ? ` title="${escapeHtml(linkTitle)}"` : ''}>${inner}</a>`;
      },
      image({ href, text }: Tokens.Image) {
        const label = escapeHtml(text || href);
        return SAFE_HREF.test(href) ? `<a href="${escapeHtml(href)}">[image: ${label}]</a>` : `[image: ${label}]`;
      },
    },
  });

  const tokens = marked.lexer(markdown);
  // The introduction: every block before the first heading other than the title.
  let split = tokens.findIndex(
    (t, i) =>
      t.type === 'heading' &&
      !(i === tokens.findIndex((u) => u.type === 'heading') && (t as Tokens.Heading).depth === 1),
  );
  if (split === -1) split = tokens.length;
  const intro = new SafeHtml(marked.parser(tokens.slice(0, split)));
  const body = new SafeHtml(marked.parser(tokens.slice(split)));
  const t = title as { text: string; html: string } | undefined;
  return { title: t?.text ?? 'Methodology', titleHtml: new SafeHtml(t?.html ?? 'Methodology'), intro, toc, body };
}
