/**
 * `GET /readyz`: whether this process should be sent traffic, for a load balancer's health check
 * (docs/operations.md, "Readiness"). Unlike `/healthz` (the process answers at all), each check
 * must hold, or the answer is 503:
 * - `release`: a release is loaded (every file matched its release.json when it was loaded);
 * - `board`: the board is served as signed (its attestation VERIFIED under the published board
 *   key), or deliberately unsigned (the release itself was published unsigned); a signed release
 *   served unsigned because the board key became unhealthy is not ready;
 * - `keys`: the DID document served names the keys that signed the release (a replica serving with
 *   keys of its own would fail every signature of the release under `gspc verify`);
 * - `ledger`: the ledger answers a round trip within LEDGER_TIMEOUT_MS, when one is configured
 *   (a read-only service has none, and needs none).
 */
import type { DocumentEntry } from './document.js';
import { BASE_HEADERS, JSON_TYPE } from '../headers.js';
import { describeMismatches } from '../../release/release-keys.js';

const LEDGER_TIMEOUT_MS = 2_000;

interface Check {
  check: 'release' | 'board' | 'keys' | 'ledger';
  ok: boolean;
  detail: string;
}

async function ledgerCheck(ping: (() => Promise<void>) | undefined): Promise<Check> {
  if (ping === undefined) return { check: 'ledger', ok: true, detail: 'no ledger configured: a read-only service' };
  const t0 = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${LEDGER_TIMEOUT_MS} ms`)), LEDGER_TIMEOUT_MS);
      }),
    ]);
    return { check: 'ledger', ok: true, detail: `answered in ${Date.now() - t0} ms` };
  } catch (e) {
    return { check: 'ledger', ok: false, detail: `unreachable: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

export const readinessDocument: DocumentEntry<{ status: 'ready' | 'unready'; release: string; checks: Check[] }> = {
  id: 'readiness',
  route: '/readyz',
  query: null,
  schema: null,
  cache: { kind: 'request', cacheControl: 'no-store' },
  paths: () => ['/readyz'],
  read: async (ctx) => {
    const current = ctx.state.current();
    const release = current.release;
    const stamp = current.boardStamp;
    const unsignedRelease = release.evidence.root.sig_ed25519 === null;
    const mismatches = current.keyMismatches;
    const checks: Check[] = [
      { check: 'release', ok: true, detail: `${release.id} (as of ${release.descriptor.as_of}) loaded` },
      stamp.verification_state === 'VERIFIED'
        ? { check: 'board', ok: true, detail: 'the board attestation is VERIFIED' }
        : unsignedRelease
          ? { check: 'board', ok: true, detail: 'deliberately unsigned: the release was published unsigned' }
          : {
              check: 'board',
              ok: false,
              detail:
                `the release is signed but its board is served ${stamp.verification_state}: ${stamp.reason ?? ''}`.trim(),
            },
      mismatches.length === 0
        ? { check: 'keys', ok: true, detail: 'the DID document served names the keys that signed the release' }
        : {
            check: 'keys',
            ok: false,
            detail: `the DID document served names other keys than those that signed the release: ${describeMismatches(mismatches)}`,
          },
      await ledgerCheck(ctx.ledger && (() => ctx.ledger!.ping())),
    ];
    const ready = checks.every((c) => c.ok);
    return {
      kind: 'built',
      status: ready ? 200 : 503,
      text: JSON.stringify({ status: ready ? 'ready' : 'unready', release: release.id, checks }),
      headers: { ...BASE_HEADERS, 'content-type': JSON_TYPE, 'cache-control': 'no-store' },
    };
  },
};
