/**
 * `GET /dashboard/axes/<slug>/items` (issue 41 item 4, decisions XP1-XP6): the item explorer page,
 * server-rendered and readable without JavaScript.
 * - `?first=&second=[&side=first|second][&cursor=]`: the pair's 2×2 counts and the discordant
 *   items of one side, each with its gold, both labels and both responses;
 * - `?item=[&cursor=]`: every model's outcome, label and response on one item.
 * Read in-process from `GET /api/items` (the registry entry, `ctx.documents`), never computed
 * here. A page shows {@link PAGE_ENTRIES} entries from the offset its cursor names; its links
 * carry `/api/items` cursors (XP3), so a page is linkable and its neighbours are one click away
 * both ways. A query the document refuses is an HTML page with the document's status and words.
 */
import type { FastifyInstance } from 'fastify';
import { GspcError } from '../core/errors.js';
import { ITEMS_QUERY_MAX, itemsCursor, type ItemsView } from '../serve/documents/items.js';
import { comparisonAxes } from '../serve/documents/models.js';
import { readQuery } from '../serve/query.js';
import { axisPagePath, itemsPagePath } from './axis-path.js';
import { html } from './html.js';
import {
  itemBody,
  type ItemHead,
  type ItemModel,
  pairBody,
  type PairHead,
  type PairItem,
  type Paging,
} from './item-explorer-view.js';
import { inertWord } from './inert-text.js';
import { page, PAGE_HEADERS } from './layout.js';
import type { PageContext } from './page-context.js';

/** Entries on one page: at most 40 responses of at most 2,000 characters (decision XP3). */
export const PAGE_ENTRIES = 20;

const QUERY = ['first', 'second', 'side', 'item', 'cursor'] as const;

type Doc = (PairHead | ItemHead) & {
  items?: PairItem[];
  models?: ItemModel[];
  page: { from: number; to: number; of: number; next_cursor: string | null };
};

type Failure = { status: number; message: string };

/**
 * The entries of a page: the document from the cursor, then its next pages until
 * {@link PAGE_ENTRIES} are read (a document page holds at most 64 KiB, so fewer when the
 * responses are long).
 */
async function readPage(ctx: PageContext, query: Record<string, string | undefined>) {
  const read = (cursor: string | undefined) => ctx.documents.read<Doc>('items', { query: { ...query, cursor } });
  let r = await read(query['cursor']);
  if (!r.ok) return { ok: false as const, status: r.status, message: r.value.error };
  const head = r.value;
  const entries: unknown[] = [...(head.items ?? head.models ?? [])];
  while (entries.length < PAGE_ENTRIES && r.ok && r.value.page.next_cursor !== null) {
    r = await read(r.value.page.next_cursor);
    if (r.ok) entries.push(...(r.value.items ?? r.value.models ?? []));
  }
  if (!r.ok) return { ok: false as const, status: r.status, message: r.value.error };
  const shown = entries.slice(0, PAGE_ENTRIES);
  return { ok: true as const, head, entries: shown, from: head.page.from, of: head.page.of };
}

function errorPage(axis: string | undefined, f: Failure, known: readonly string[]): string {
  return page({
    title: f.status === 404 ? 'Not found' : 'Bad query',
    path: '/dashboard',
    description: 'The item explorer could not show this.',
    body: html`<h1>Item explorer: ${f.status === 404 ? 'not found' : 'a query it cannot read'}</h1>
<p class="callout" id="dash-error" data-status="${String(f.status)}">${inertWord(f.message)}</p>
${
  axis !== undefined
    ? html`<p>The explorer of a pair is linked from each pair of <a href="${axisPagePath(axis)}">the axis page of ${axis}</a> (its heat map and its pairs table); it takes <code>first</code> and <code>second</code> (two model ids) and optionally <code>side</code> (<code>first</code> or <code>second</code>) and <code>cursor</code>, or <code>item</code> alone.</p>`
    : html`<p>The model-comparison axes, each with its page of every model and pair:</p>
<ul id="axis-known">${known.map((a) => html`<li><a href="${axisPagePath(a)}"><code>${a}</code></a></li>`)}</ul>`
}`,
  });
}

export function registerItemExplorerPage(app: FastifyInstance, ctx: PageContext): void {
  app.get<{ Params: { axis: string } }>('/dashboard/axes/:axis/items', async (req, reply) => {
    const current = ctx.state.current();
    const known = comparisonAxes(current);
    const fail = (axis: string | undefined, f: Failure) =>
      reply
        .code(f.status)
        .headers(PAGE_HEADERS)
        .send(errorPage(axis, f, known));
    const axis = req.params.axis;
    if (!known.includes(axis))
      return fail(undefined, {
        status: 404,
        message: `The board has no model-comparison axis '${axis.slice(0, 80)}'.`,
      });
    let q: Map<string, string>;
    try {
      q = readQuery(req.url, QUERY, [], ITEMS_QUERY_MAX);
    } catch (e) {
      if (!(e instanceof GspcError)) throw e;
      return fail(axis, { status: 400, message: `${e.message}.` });
    }
    const query = Object.fromEntries(q) as Record<string, string | undefined>;
    const read = await readPage(ctx, { axis, ...query });
    if (!read.ok) return fail(axis, { status: read.status, message: `${read.message}.` });
    const item = q.get('item');
    // The document accepted the query: the view is one it knows.
    const view: ItemsView =
      item !== undefined
        ? { item }
        : { first: q.get('first')!, second: q.get('second')!, side: q.get('side') === 'second' ? 'second' : 'first' };
    const { from, of } = read;
    const to = from + read.entries.length;
    // Cursors of the release just read (one swapped in while the page was read makes the next
    // click a 400 "start again", never a position in another release). The first page has no
    // cursor, so its address is the one the axis page links.
    const served = ctx.state.current();
    const at = (offset: number) =>
      itemsPagePath(axis, { ...view, ...(offset > 0 && { cursor: itemsCursor(served, axis, view, offset) }) });
    const paging: Paging = {
      from,
      to,
      of,
      prev: from > 0 ? at(Math.max(0, from - PAGE_ENTRIES)) : null,
      next: to < of ? at(to) : null,
      json: `/api/items?${new URLSearchParams(Object.entries({ axis, ...query }).filter((e): e is [string, string] => e[1] !== undefined))}`,
    };
    const isItem = item !== undefined;
    const body = isItem
      ? itemBody(read.head as ItemHead, read.entries as ItemModel[], paging)
      : pairBody(read.head as PairHead, read.entries as PairItem[], paging);
    const h = read.head;
    const title = isItem ? `Item · ${axis}` : `Items that separate two models · ${axis}`;
    return reply.headers(PAGE_HEADERS).send(
      page({
        title,
        path: '/dashboard',
        description: isItem
          ? `Every model's label and response on one item of the ${axis} axis.`
          : `The items of the ${axis} axis that one model got right and the other wrong, with gold, labels and responses.`,
        body: html`<h1>${isItem ? 'One item' : 'Items that separate two models'} <span class="dash-tabname">· ${axis}</span></h1>
<section class="dash-tab xp-page" id="tab-items" data-view="${isItem ? 'item' : 'pair'}" data-axis="${h.axis}">
${body}
</section>`,
      }),
    );
  });
}
