/**
 * `release.json`: what a release directory holds. Written by `publish.ts`, checked by `load.ts`,
 * and read by `corrections-guard.ts` to find the previous release's files.
 */

export const RELEASE_SCHEMA = 'svc.gspc-release/1';

export interface ReleaseDescriptor {
  schema: typeof RELEASE_SCHEMA;
  id: string;
  as_of: string;
  peritem_sha256: string;
  peritem_rows: number;
  files: { path: string; sha256: string; bytes: number }[];
  /** Evidence files (cards, ledgers, root), relative to the release directory. */
  evidence: { path: string; sha256: string; bytes: number }[];
  /**
   * The public origin the release was published for (`gspc publish --public-url`, GSPC_BASE_URL,
   * else http://localhost:<port>). Absent from releases published before it was recorded (and
   * from library publishes that give none): their origin is the did:web of their public keys.
   */
  public_url?: string;
}
