/** The demo corpus's regulation status file(s) (stub: filled in by issue 5 work). */
export function regulationFiles(): [path: string, text: string][] {
  return [];
}
