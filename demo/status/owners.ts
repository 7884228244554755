/** The demo corpus's owners status file(s) (stub: filled in by issue 5 work). */
export function ownersFiles(): [path: string, text: string][] {
  return [];
}
