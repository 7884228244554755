/**
 * An item's tags and date as one comparable string (issue 41 item 1): rows of one item must
 * agree on both, across one import and with the corpus rows it merges into (the corpus reader's
 * rule, decision IT1), so the import refuses a disagreement at its source instead of writing a
 * corpus that `gspc validate` refuses. Tags compare as a set; '' means neither.
 */
export function facetKey(tags: unknown, date: unknown): string {
  if (tags === undefined && date === undefined) return '';
  const t = Array.isArray(tags) ? [...(tags as unknown[])].map(String).sort() : tags;
  return JSON.stringify([t ?? null, date ?? null]);
}

/** A `facetKey` back as words, for messages. */
export function facetText(key: string): string {
  if (key === '') return 'no tags and no item_date';
  const [tags, date] = JSON.parse(key) as [unknown, unknown];
  return `tags ${JSON.stringify(tags)} and item_date ${JSON.stringify(date)}`;
}
