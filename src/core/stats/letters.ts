/**
 * A compact letter display (Piepho 2004, "An algorithm for a letter-based representation of
 * all-pairwise comparisons", J. Comput. Graph. Stat. 13(2); R `multcompView::multcompLetters`),
 * by Piepho's insert-and-absorb algorithm: start with one letter shared by every model; for each
 * separated pair, split every letter both hold into one without the first and one without the
 * second (insert), then drop any letter whose models all share another letter (absorb). Two
 * models then share a letter exactly when they are not separated.
 *
 * `count` models, indexed in rank order (best first); `separated(i, j)` says whether a pair is
 * separated. Letters are ordered by the best model they hold: `a` holds the best model.
 */
export function compactLetters(count: number, separated: (i: number, j: number) => boolean): string[] {
  if (count === 0) return [];
  let columns: number[][] = [[...Array(count).keys()]];
  for (let i = 0; i < count; i++)
    for (let j = i + 1; j < count; j++) {
      if (!separated(i, j)) continue;
      const next: number[][] = [];
      for (const col of columns) {
        if (col.includes(i) && col.includes(j))
          next.push(
            col.filter((x) => x !== j),
            col.filter((x) => x !== i),
          );
        else next.push(col);
      }
      columns = absorb(next);
    }
  // Each column is sorted (members keep their rank order); order columns by their members' ranks.
  columns.sort((x, y) => {
    for (let k = 0; k < Math.min(x.length, y.length); k++) if (x[k] !== y[k]) return x[k]! - y[k]!;
    return x.length - y.length;
  });
  const out = Array.from({ length: count }, () => '');
  columns.forEach((col, k) => {
    for (const m of col) out[m] += letterName(k);
  });
  return out;
}

/** Drops every column that is a subset of another (and duplicates, keeping the first). */
function absorb(columns: number[][]): number[][] {
  const sets = columns.map((c) => new Set(c));
  return columns.filter((c, i) =>
    sets.every(
      (other, j) =>
        j === i || c.length > other.size || !c.every((m) => other.has(m)) || (c.length === other.size && i < j),
    ),
  );
}

/** a, b, …, z, then aa, ab, … (base 26, as spreadsheet columns are named). */
function letterName(k: number): string {
  let name = '';
  for (let n = k + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(97 + ((n - 1) % 26)) + name;
  return name;
}
