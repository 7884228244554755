/** Where a model-comparison axis's own page is (issue 29): a path with no query, so a plain static mirror can serve it. */
export const axisPagePath = (axis: string) => `/dashboard/axes/${encodeURIComponent(axis)}`;

/**
 * The item explorer page of an axis (issue 41 item 4, decision XP1): a pair's discordant items
 * (`first`, `second`, `side`) or one item (`item`), with the `/api/items` cursor of a page.
 */
export const itemsPagePath = (axis: string, query: Readonly<Record<string, string | undefined>>) => {
  const q = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  return `${axisPagePath(axis)}/items?${q}`;
};
