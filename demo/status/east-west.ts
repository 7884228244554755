/** The demo corpus's east-west status file(s) (stub: filled in by issue 5 work). */
export function east_westFiles(): [path: string, text: string][] {
  return [];
}
