/** The demo corpus's reported status file(s) (stub: filled in by issue 5 work). */
export function reportedFiles(): [path: string, text: string][] {
  return [];
}
