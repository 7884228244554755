/**
 * `gspc import --tag-field <path>` and `--date-field <path>` (issue 41 item 1, decision IT7): the
 * field of the harness's own record of an item that holds its tags (a subject, a language, a
 * difficulty) or its date. The operator names it, as for `--cluster` (cluster-field.ts): no
 * harness records these under one name, and reading a name that looks right would be a guess.
 *
 * Every record of the import must have the field, as `--cluster` requires: a path mistyped
 * (`metadata.subjcet`) would otherwise import with no tags at all and say nothing. A tag field
 * holds one tag (a string, or a whole number written as its decimal text) or a list of them; a
 * date field a string `YYYY-MM-DD` or `YYYY-MM`, taken as written (a timestamp is refused, not
 * cut to its day). What the corpus would refuse is refused at the record's place.
 */
import { GspcError } from '../core/errors.js';
import { itemDateProblem, tagsProblem } from '../corpus/item-facet-fields.js';
import { pathKeys, valueAt } from './cluster-field.js';

export interface FacetFields {
  /** The tags and date the record gives; refuses a record without a named field, or a bad value. */
  of(record: unknown, at: string): { tags?: string[]; item_date?: string };
}

/**
 * A whole number is a category (a difficulty of 1 to 5) and becomes its decimal text. A fraction
 * is a measurement (a confidence of 0.886…): as a tag it makes a slice of nearly every item, a
 * list of a thousand one-item slices with nothing to compare (decision IT9), so it is refused.
 */
const asTag = (v: unknown): unknown => (typeof v === 'number' && Number.isInteger(v) ? String(v) : v);
const FRACTION =
  'is a fraction, a measurement rather than a category: each value would be a slice of its own (decision IT9); bin it into categories first, or name another field';
const shown = (v: unknown) => JSON.stringify(v)?.slice(0, 80) ?? String(v);

export function facetFields(tagPath: string | undefined, datePath: string | undefined): FacetFields | undefined {
  if (tagPath === undefined && datePath === undefined) return undefined;
  const tagKeys = tagPath === undefined ? undefined : pathKeys('--tag-field', tagPath, 'metadata.subject');
  const dateKeys = datePath === undefined ? undefined : pathKeys('--date-field', datePath, 'metadata.date');
  return {
    of(record, at) {
      const out: { tags?: string[]; item_date?: string } = {};
      if (tagKeys !== undefined) {
        const v = valueAt(tagKeys, record);
        const tags = (Array.isArray(v) ? v : [v]).map(asTag);
        const fraction = tags.some((t) => typeof t === 'number' && Number.isFinite(t));
        const wrong =
          v === undefined || v === null ? 'the record has no such field' : fraction ? FRACTION : tagsProblem(tags);
        if (wrong !== undefined)
          throw new GspcError(
            'import_refused',
            `${at}: --tag-field ${tagPath}: ${v === undefined || v === null ? wrong : `${shown(v)}: ${wrong}`}; every record must give its tags (or import without --tag-field)`,
          );
        out.tags = tags as string[];
      }
      if (dateKeys !== undefined) {
        const v = valueAt(dateKeys, record);
        const wrong = v === undefined || v === null ? 'the record has no such field' : itemDateProblem(v);
        if (wrong !== undefined)
          throw new GspcError(
            'import_refused',
            `${at}: --date-field ${datePath}: ${v === undefined || v === null ? wrong : `${shown(v)} ${wrong}`}; every record must give its date (or import without --date-field)`,
          );
        out.item_date = v as string;
      }
      return out;
    },
  };
}

/** The row's tags: the harness's own (lm-eval's groups) then the named field's, each once. */
export function withFacets(
  row: { tags?: string[]; item_date?: string },
  facets: FacetFields | undefined,
  record: unknown,
  at: string,
): void {
  if (facets === undefined) return;
  const f = facets.of(record, at);
  if (f.tags !== undefined) row.tags = row.tags === undefined ? f.tags : [...new Set([...row.tags, ...f.tags])];
  if (f.item_date !== undefined) row.item_date = f.item_date;
}
