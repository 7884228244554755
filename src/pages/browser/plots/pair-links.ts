/**
 * The item explorer of each pair, as the server-rendered pairs table links it (issue 41 item 4,
 * decision XP2): the heat map's cells take their links from the table's rows, so a cell leads
 * exactly where the row does, on the service and on a static mirror (whose pages point the links
 * the mirror does not serve at the origin; the island's JSON is never rewritten).
 */

/** `(row, column) → href` for the heat map: the row's link, its models swapped below the diagonal. */
export function pairLinks(root: ParentNode = document): (first: string, second: string) => string | undefined {
  const links = new Map<string, string>();
  for (const tr of root.querySelectorAll<HTMLTableRowElement>('#axis-pairs tr[data-first][data-second]')) {
    const href = tr.querySelector<HTMLAnchorElement>('a.axis-pair-items')?.getAttribute('href');
    if (href) links.set(`${tr.dataset['first']}\n${tr.dataset['second']}`, href);
  }
  return (first, second) => {
    const same = links.get(`${first}\n${second}`);
    if (same !== undefined) return same;
    const other = links.get(`${second}\n${first}`);
    if (other === undefined) return undefined;
    // The same pair read from the other side: first and second swapped, nothing else.
    const u = new URL(other, document.baseURI);
    u.searchParams.set('first', first);
    u.searchParams.set('second', second);
    return other.startsWith('/') ? `${u.pathname}${u.search}` : u.href;
  };
}
