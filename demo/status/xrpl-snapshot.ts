/** The demo corpus's xrpl-snapshot status file(s) (stub: filled in by issue 5 work). */
export function xrpl_snapshotFiles(): [path: string, text: string][] {
  return [];
}
