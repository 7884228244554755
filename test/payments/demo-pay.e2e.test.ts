/** `npm run demo:pay`, the documented one-command local payment, runs to "demo: OK". */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { repoRoot } from '../helpers/repo.js';
import { freePort } from '../helpers/process.js';
import { noAnvil } from '../helpers/chain.js';

it('demo:pay pays a commission receipt on the local chain and verifies it three ways', {
  skip: noAnvil(),
}, async () => {
  const port = await freePort();
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'demo/pay.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port) },
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /paid with @x402\/fetch → 200; transaction 0x[0-9a-f]{64}/);
  assert.match(r.stdout, /POST \/api\/receipts\/verify: VALID/);
  assert.match(r.stdout, /@x402\/extensions .*VALID, names the transaction/);
  assert.match(r.stdout, /commission receipt [0-9a-f]{16}…: .*VALID/);
  assert.match(r.stdout, /demo: OK/);
});
