/**
 * US dollars for reading (issue 40, cost): three significant figures (`$0.0105`, `$0.002`,
 * `$1.5`), trailing zeros dropped, whole dollars from $100. Shared by the axis page's cost table
 * and its plot script, so the two read alike; the table's `data-value` keeps the served number.
 */
export function usd(x: number): string {
  if (x === 0) return '$0';
  if (x >= 100) return `$${Math.round(x).toLocaleString('en')}`;
  const digits = Math.min(12, Math.max(2, 2 - Math.floor(Math.log10(x))));
  return `$${x.toFixed(digits).replace(/(\.\d*?[1-9])0+$|\.0+$/, '$1')}`;
}
