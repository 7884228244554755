/** The demo corpus's census status file(s) (stub: filled in by issue 5 work). */
export function censusFiles(): [path: string, text: string][] {
  return [];
}
