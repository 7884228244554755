/**
 * A table that fits any screen (issue 29): on a wide screen an ordinary table; below 48rem each
 * row becomes a card, its first cell the card's title and every other cell a line led by its
 * column's name (site.css `table.cards`, from each cell's `data-label`). Nothing is hidden on a
 * phone and nothing scrolls sideways. Long machine words (`REFUSED_ONE_LABEL_MENU`,
 * `demo/atlas-70b`) get break opportunities so a column can be narrower than the word.
 */
import { escapeHtml, html, SafeHtml } from './html.js';

export interface Column {
  label: string;
  /** A numeric column: right-aligned on a wide screen. */
  num?: boolean;
}

export interface CardRow {
  /** The `<tr>`'s attributes (`data-axis="…"`), already HTML. */
  attrs: SafeHtml;
  /** One cell per column, each a `<th>` or `<td>` element; the first is the row header. */
  cells: readonly SafeHtml[];
}

/** Gives a cell element its column name, which the card layout shows before its value. */
function labelled(cell: SafeHtml, label: string): SafeHtml {
  return new SafeHtml(cell.value.replace(/^<(td|th)\b/, `<$1 data-label="${escapeHtml(label)}"`));
}

export function cardTable(
  id: string,
  caption: string | SafeHtml,
  columns: readonly Column[],
  rows: readonly CardRow[],
): SafeHtml {
  for (const r of rows)
    if (r.cells.length !== columns.length)
      throw new Error(`${id}: a row has ${r.cells.length} cells for ${columns.length} columns`);
  return html`<div class="table-wrap"><table id="${id}" class="dash-table cards">
<caption>${caption}</caption>
<thead><tr>${columns.map((c) => html`<th scope="col"${c.num ? html` class="num"` : ''}>${c.label}</th>`)}</tr></thead>
<tbody>${rows.map((r) => html`<tr${r.attrs}>${r.cells.map((c, i) => labelled(c, columns[i]!.label))}</tr>\n`)}</tbody></table></div>`;
}

/** A machine word with a break opportunity after each `_`, `/` and `·` (the text is unchanged). */
export function breakable(word: string): SafeHtml {
  return new SafeHtml(escapeHtml(word).replace(/([_/·])/g, '$1<wbr>'));
}
