/**
 * Where two byte strings first differ, said so a person can find it: the byte offset, the line
 * and column, and a few characters of each side. What `gspc verify` reports for a fetched file
 * whose bytes are not the ones the release's signed content gives.
 */

const CONTEXT = 24;

function excerpt(b: Buffer, at: number): string {
  if (at >= b.length) return 'the end of the file';
  return JSON.stringify(b.subarray(at, Math.min(b.length, at + CONTEXT)).toString('utf8'));
}

/** Undefined when the two are equal. */
export function firstDifference(expected: Buffer, actual: Buffer): string | undefined {
  const n = Math.min(expected.length, actual.length);
  let at = 0;
  while (at < n && expected[at] === actual[at]) at++;
  if (at === n && expected.length === actual.length) return undefined;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++)
    if (actual[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  return `first difference at byte ${at} (line ${line}, column ${at - lineStart + 1}): expected ${excerpt(expected, at)}, found ${excerpt(actual, at)}`;
}
