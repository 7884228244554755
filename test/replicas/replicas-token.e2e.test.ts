/**
 * Three replicas signing through one token's keys (issue 30): the publisher and three `gspc
 * serve` replicas behind nginx on one PostgreSQL ledger (test/replicas/topology.ts), every one of
 * them signing through the same SoftHSM2 token with GSPC_SIGNER=pkcs11. They serve identical,
 * verifying releases, and no private key file is in any data directory. Skips, saying why,
 * without nginx, PostgreSQL, SoftHSM2 or the pkcs11js binding.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gspc } from '../helpers/cli.js';
import { nginxMissing } from '../helpers/nginx.js';
import { softhsmMissing, softhsmToken } from '../helpers/softhsm.js';
import { probePostgres } from '../store/postgres-harness.js';
import { filesUnder } from '../helpers/tmp.js';
import { startTopology } from './topology.js';

const pgProbe = await probePostgres();
const skip =
  nginxMissing() ?? softhsmMissing() ?? (pgProbe.ok ? undefined : `PostgreSQL is not reachable (${pgProbe.reason})`);

const token =
  skip === undefined ? softhsmToken(['board-attestation-1', 'card-attestation-1', 'card-attestation-2']) : undefined;
const topology = skip === undefined ? await startTopology({}, 3, token) : undefined;

describe('three replicas signing through one PKCS#11 token', { skip }, () => {
  const t = topology!;

  it('gspc verify passes through the balancer, and every replica answers the same signed bytes', async () => {
    const v = await gspc(['verify', t.lb]);
    assert.equal(v.status, 0, v.stdout);
    assert.match(v.stdout, /^VALID: every check passes, 36 of 36 cards valid$/m);
    for (const path of [
      '/api/gspc',
      '/root.json',
      '/log/checkpoint',
      '/.well-known/did.json',
      '/.well-known/agent-card.json',
    ]) {
      const bodies = await Promise.all(
        t.replicas.map(async (r) => {
          const res = await fetch(`${r.url}${path}`);
          assert.equal(res.status, 200, `${r.url}${path}`);
          return `${res.headers.get('etag')}\n${await res.text()}`;
        }),
      );
      assert.equal(new Set(bodies).size, 1, `${path}: one answer from every replica`);
    }
    const board = (await (await fetch(`${t.lb}/api/gspc`)).json()) as {
      measured_on: { living_stamp: { verification_state: string } };
    };
    assert.equal(board.measured_on.living_stamp.verification_state, 'VERIFIED');
  });

  it('no private key file in the publisher or any replica data directory', () => {
    for (const dir of [t.publisher, ...t.replicas.map((r) => r.dataDir)])
      assert.deepEqual(
        filesUnder(dir).filter((f) => f.endsWith('.key') || f.includes('/keys/')),
        [],
        dir,
      );
  });
});
