/**
 * Merges an axis's imported rows into `peritem/<axis>.jsonl`, streaming both files:
 * existing rows keep their order and bytes; an existing row of an imported (item, model) is
 * replaced in place by the imported row; the other imported rows are appended in import order.
 * Re-importing the same run therefore writes the same bytes, and a second model's rows follow
 * the first's, paired by item id.
 */
import { existsSync } from 'node:fs';
import { GspcError } from '../core/errors.js';
import { goldKey, goldText } from './corpus-row.js';
import { facetKey, facetText } from './facet-key.js';
import { LineFile } from './jsonl-lines.js';
import type { RowSpool } from './row-spool.js';
import { StagedFile } from './staged-file.js';

export interface Merged {
  file: StagedFile;
  rows: number;
  replaced: number;
  added: number;
  /** Gold labels of the existing rows that stay (they must stay in the label menu). */
  existingGolds: Set<string>;
  /** Distinct items in the merged file (an axis definition's `n`, when it states one, must equal it). */
  items: number;
}

/**
 * A row the merge keeps must agree with the import on clusters: all rows of an axis carry one or
 * none (the corpus reader's rule), and the rows of one item the same one.
 */
function checkCluster(cluster: unknown, spool: RowSpool, item: string, at: string): void {
  if ((cluster !== undefined) !== spool.clustered)
    throw new GspcError(
      'import_refused',
      spool.clustered
        ? `${at}: this row of the corpus carries no cluster and the import gives clusters (--cluster): all rows of an axis carry one or none; import every run of the axis again with --cluster, or this one without it`
        : `${at}: this row of the corpus carries a cluster and the import gives none: all rows of an axis carry one or none; import this run with --cluster naming the same field`,
    );
  const theirs = spool.clusterOf(item);
  if (theirs !== undefined && theirs !== cluster)
    throw new GspcError(
      'import_refused',
      `${at} ${item}: the corpus has cluster ${JSON.stringify(cluster)} for this item, the import has ${JSON.stringify(theirs)}: rows of one item must agree on the cluster`,
    );
}

export function mergePeritem(corpusDir: string, axis: string, target: string, spool: RowSpool): Merged {
  // Nothing to merge with: the spool, already in import order, is the file (no second pass).
  if (!existsSync(target))
    return {
      file: spool.file,
      rows: spool.rows,
      replaced: 0,
      added: spool.rows,
      existingGolds: new Set(),
      items: spool.itemCount,
    };
  spool.file.flush(); // rows are read back from it below (positioned reads and a sequential pass)
  const out = new StagedFile(corpusDir, `${axis}.jsonl`);
  const written = new Uint8Array(spool.rows);
  const existingGolds = new Set<string>();
  /** Items only the existing rows have (the import's own are counted by the spool). */
  const otherItems = new Set<string>();
  let rows = 0;
  let replaced = 0;
  try {
    const rel = `peritem/${axis}.jsonl`;
    for (const { line, text } of new LineFile(target).lines()) {
      if (text === '') continue; // a final newline; readCorpus refuses any other blank line
      let r: {
        item?: unknown;
        model?: unknown;
        gold?: unknown;
        cluster?: unknown;
        tags?: unknown;
        item_date?: unknown;
      };
      try {
        r = JSON.parse(text) as typeof r;
      } catch {
        throw new GspcError(
          'import_refused',
          `${rel}:${line}: not a JSON row; fix the corpus before importing into it`,
        );
      }
      const item = String(r.item);
      const n = spool.rowOf(String(r.model), item);
      if (n !== undefined) {
        out.write(spool.line(n));
        written[n] = 1;
        replaced++;
      } else {
        const theirs = spool.goldOf(item);
        if (theirs === undefined) otherItems.add(item);
        else if (theirs !== goldKey(r.gold))
          throw new GspcError(
            'import_refused',
            `${rel}:${line} ${item}: the corpus has gold ${JSON.stringify(r.gold)} for this item (model ${String(r.model)}), the import has ${goldText(theirs)}: rows of one item must agree on the gold`,
          );
        checkCluster(r.cluster, spool, item, `${rel}:${line}`);
        const facets = spool.facetOf(item);
        const ours = facets === undefined ? undefined : facetKey(r.tags, r.item_date);
        if (ours !== undefined && ours !== facets)
          throw new GspcError(
            'import_refused',
            `${rel}:${line} ${item}: the corpus has ${facetText(ours)} for this item (model ${String(r.model)}), the import has ${facetText(facets!)}: rows of one item must agree on both (issue 41)`,
          );
        for (const g of Array.isArray(r.gold) ? r.gold : [r.gold]) if (typeof g === 'string') existingGolds.add(g);
        out.write(`${text}\n`);
      }
      rows++;
    }
    let added = 0;
    for (const { line, text } of new LineFile(spool.file.path).lines()) {
      if (written[line - 1] === 1) continue;
      out.write(`${text}\n`);
      added++;
    }
    out.close();
    return { file: out, rows: rows + added, replaced, added, existingGolds, items: spool.itemCount + otherItems.size };
  } catch (e) {
    out.discard();
    throw e;
  }
}
