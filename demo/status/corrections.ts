/** The demo corpus's corrections status file(s) (stub: filled in by issue 5 work). */
export function correctionsFiles(): [path: string, text: string][] {
  return [];
}
