/**
 * The operator's ledger commands as an operator runs them (in-process through `main()`, and the
 * compiled bin once): invoices listed
 * and settled, payments listed without artefact bytes, and reconcile refusing to run without
 * GSPC_RPC_URL or against a chain it cannot read, and running against a real local node.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startLocalRail } from '../../demo/local-rail/index.js';
import type { Ledger, NewReservation } from '../../src/store/ledger.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { noAnvil } from '../helpers/chain.js';
import { gspc } from '../helpers/cli.js';
import { runCli } from '../helpers/process.js';
import { repoRoot } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';

if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js'))) {
  throw new Error('dist/ is missing: the CLI tests run the compiled bin; run `npm run build` (npm test does it first)');
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const iso = (msAgo = 0) => new Date(Date.now() - msAgo).toISOString();

async function withLedger(dataDir: string, fn: (l: Ledger) => Promise<void>): Promise<void> {
  const ledger = await openLedger({ sqlitePath: join(dataDir, 'ledger.sqlite') });
  try {
    await fn(ledger);
  } finally {
    await ledger.close();
  }
}

function reservation(over: Partial<NewReservation> = {}): NewReservation {
  return {
    payer: `0x${randomBytes(20).toString('hex')}`,
    nonce: `0x${randomBytes(32).toString('hex')}`,
    product_id: 'gspc.issuance',
    sku_id: 'issuance',
    resource: '/api/eunomia-data?feed=1',
    amount_atomic: '10000',
    asset: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    network: 'eip155:8453',
    pay_to: `0x${'22'.repeat(20)}`,
    payment_sha256: sha256(randomBytes(8)),
    self_funded: false,
    valid_before: String(Math.floor(Date.now() / 1000) + 3600),
    at: iso(),
    ...over,
  };
}

describe('gspc invoice', () => {
  it('list shows every invoice; settle marks one PAID once, says so again, and refuses an unknown reference', async () => {
    const data = tempDir();
    const bytes = Buffer.from('{"bundle":"evidence"}');
    const [withArtefact, plain] = ['inv_0123456789abcdefghjkmnpqrs', 'inv_zyxwvtsrqpnmkjhgfedcba9876'];
    await withLedger(data, async (l) => {
      await l.createInvoice({
        ref: withArtefact,
        product_id: 'gspc.evidence_bundle',
        sku_id: 'evidence_bundle',
        resource: '/api/evidence-bundle?obligation=dora&bundle=1&invoice=gbp&commissioned_by=Example+Ltd',
        commissioned_by: 'Example Ltd',
        amount_atomic: '250000000',
        currency: 'GBP',
        at: '2026-01-02T03:04:05.000Z',
        artefact: { artefact: bytes, artefact_sha256: sha256(bytes), receipt: null },
      });
      await l.createInvoice({
        ref: plain,
        product_id: 'gspc.evidence_bundle',
        sku_id: 'evidence_bundle',
        resource: '/api/evidence-bundle?obligation=cra&bundle=1',
        commissioned_by: 'Other Org GmbH',
        amount_atomic: '100',
        currency: 'GBP',
        at: '2026-01-03T00:00:00.000Z',
      });
    });

    const list = await gspc(['invoice', 'list', '--data-dir', data]);
    assert.equal(list.status, 0, list.stderr);
    const lines = list.stdout.trim().split('\n');
    assert.match(lines[0]!, /^REF\s+STATE\s+PRODUCT\s+RESOURCE\s+COMMISSIONED BY\s+AMOUNT\s+CURRENCY\s+ISSUED\s+PAID$/);
    assert.match(
      lines[1]!,
      new RegExp(
        `^${withArtefact}\\s+ISSUED\\s+gspc\\.evidence_bundle\\s+/api/evidence-bundle\\?obligation=dora\\S*\\s+Example Ltd\\s+250000000\\s+GBP\\s+2026-01-02T03:04:05\\.000Z\\s+-$`,
      ),
    );
    assert.match(lines[2]!, new RegExp(`^${plain}\\s+ISSUED\\s+.*Other Org GmbH\\s+100\\s+GBP`));
    assert.equal(lines[3], '2 invoices, 2 awaiting payment');

    const settle = await gspc(['invoice', 'settle', withArtefact, '--data-dir', data]);
    assert.equal(settle.status, 0, settle.stderr);
    assert.match(
      settle.stdout,
      new RegExp(
        `^invoice ${withArtefact} is PAID at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(250000000 GBP, gspc\\.evidence_bundle, commissioned by Example Ltd\\); its artefact \\(sha256 ${sha256(bytes)}\\) is now released at /api/invoices/${withArtefact}\\n$`,
      ),
    );
    const paidAt = /PAID at (\S+)/.exec(settle.stdout)![1];
    const again = await gspc(['invoice', 'settle', withArtefact, '--data-dir', data]);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.stdout, `invoice ${withArtefact} was already paid at ${paidAt}; nothing changed\n`);

    const json = await gspc(['invoice', 'list', '--json', '--data-dir', data]);
    const invoices = (JSON.parse(json.stdout) as { invoices: Array<Record<string, unknown>> }).invoices;
    assert.deepEqual(
      invoices.map((i) => [i.ref, i.state, i.paid_at, i.artefact_sha256, 'artefact' in i]),
      [
        [withArtefact, 'PAID', paidAt, sha256(bytes), false],
        [plain, 'ISSUED', null, null, false],
      ],
    );
    assert.match((await gspc(['invoice', 'list', '--data-dir', data])).stdout, /2 invoices, 1 awaiting payment/);

    const unknown = await gspc(['invoice', 'settle', 'inv_nosuchreference00000000', '--data-dir', data]);
    assert.equal(unknown.status, 2);
    assert.equal(
      unknown.stderr,
      'gspc: no invoice inv_nosuchreference00000000 in the ledger; `gspc invoice list` shows the references\n',
    );
    const malformed = await gspc(['invoice', 'settle', 'not a ref', '--data-dir', data]);
    assert.equal(malformed.status, 2);
    assert.match(malformed.stderr, /^gspc: ledger: ref must be/);
    await withLedger(data, async (l) => {
      assert.equal((await l.getInvoice(plain))!.state, 'ISSUED');
    });
  });

  it('an empty ledger lists no invoices and no payments (the compiled bin, once)', async () => {
    const data = tempDir();
    const viaBin = runCli(['invoice', 'list', '--data-dir', data]);
    assert.equal(viaBin.status, 0, viaBin.stderr);
    assert.equal(viaBin.stdout, 'no invoices\n');
    assert.equal((await gspc(['invoice', 'list', '--data-dir', data])).stdout, 'no invoices\n');
    assert.equal((await gspc(['payments', 'list', '--data-dir', data])).stdout, 'no payments\n');
  });
});

describe('gspc payments list', () => {
  it('lists records without artefact bytes (the hash stays), optionally by state; an unknown state is a usage error', async () => {
    const data = tempDir();
    const settled = reservation();
    const failed = reservation();
    const bytes = Buffer.from('artefact bytes');
    await withLedger(data, async (l) => {
      await l.reserve(settled);
      await l.markSettled(settled, {
        artefact: bytes,
        artefact_sha256: sha256(bytes),
        receipt: null,
        transaction: `0x${'ab'.repeat(32)}`,
        at: iso(),
      });
      await l.reserve(failed);
      await l.markFailed(failed, { error: 'insufficient funds', at: iso() });
    });
    const all = JSON.parse((await gspc(['payments', 'list', '--json', '--data-dir', data])).stdout) as {
      payments: Array<Record<string, unknown>>;
    };
    assert.deepEqual(
      all.payments.map((p) => [p.nonce, p.state, p.artefact_sha256, 'artefact' in p]),
      [
        [settled.nonce, 'SETTLED', sha256(bytes), false],
        [failed.nonce, 'FAILED', null, false],
      ],
    );
    const only = JSON.parse(
      (await gspc(['payments', 'list', '--state', 'FAILED', '--json', '--data-dir', data])).stdout,
    ) as {
      payments: Array<{ nonce: string; error: string }>;
    };
    assert.deepEqual(
      only.payments.map((p) => [p.nonce, p.error]),
      [[failed.nonce, 'insufficient funds']],
    );
    const text = (await gspc(['payments', 'list', '--data-dir', data])).stdout.split('\n');
    assert.match(
      text[0]!,
      /^STATE\s+PAYER\s+NONCE\s+PRODUCT\s+AMOUNT\s+NETWORK\s+TRANSACTION\s+UPDATED\s+ARTEFACT SHA-256$/,
    );
    assert.match(
      text[1]!,
      new RegExp(
        `^SETTLED\\s+${settled.payer}\\s+${settled.nonce}\\s+gspc\\.issuance\\s+10000\\s+eip155:8453\\s+0x(ab){32}\\s+\\S+\\s+${sha256(bytes)}$`,
      ),
    );
    const bad = await gspc(['payments', 'list', '--state', 'LOST', '--data-dir', data]);
    assert.equal(bad.status, 1);
    assert.match(
      bad.stderr,
      /--state <state>' argument 'LOST' is invalid\. must be one of RESERVED, SETTLED, FAILED, UNKNOWN/,
    );
  });
});

describe('gspc reconcile', () => {
  it('without GSPC_RPC_URL exits 2 with the reason and touches no ledger', async () => {
    const data = tempDir();
    const r = await gspc(['reconcile', '--data-dir', data]);
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /^gspc: gspc reconcile needs GSPC_RPC_URL: the JSON-RPC endpoint of the payment network .*nothing was changed\n$/,
    );
    assert.equal(existsSync(join(data, 'ledger.sqlite')), false);
    assert.equal(
      (await gspc(['reconcile', '--stale-after', '5', '--data-dir', data], { GSPC_RPC_URL: 'http://127.0.0.1:1' }))
        .status,
      1,
      'under 60 s is a usage error',
    );
  });

  it('a chain that cannot be read leaves every record as it was and exits 1', async () => {
    const data = tempDir();
    const open = reservation();
    await withLedger(data, async (l) => {
      await l.reserve(open);
      await l.markUnknown(open, { error: 'facilitator timed out', at: iso() });
    });
    const r = await gspc(['reconcile', '--data-dir', data], { GSPC_RPC_URL: 'http://127.0.0.1:1/v2/KEY' });
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stdout,
      /against the chain could not be read: chain RPC http:\/\/127\.0\.0\.1:1 eth_chainId: unreachable/,
    );
    assert.match(r.stdout, /\nERROR {2}stays UNKNOWN {2}payer 0x[0-9a-f]{40} {2}nonce 0x[0-9a-f]{64}\n/);
    assert.doesNotMatch(r.stdout, /KEY/);
    await withLedger(data, async (l) => {
      assert.equal((await l.get(open))!.state, 'UNKNOWN');
    });
  });

  it('against a real node: a stale reservation is parked, an open authorization is pending, exit 0', {
    skip: noAnvil() ?? false,
  }, async () => {
    const rail = await startLocalRail({ facilitator: false });
    try {
      const data = tempDir();
      const stale = reservation({
        payer: rail.payer.address,
        asset: rail.usdc,
        pay_to: rail.payTo.address,
        at: iso(3600_000),
      });
      await withLedger(data, async (l) => {
        await l.reserve(stale);
      });
      const none = await gspc(['reconcile', '--data-dir', data, '--stale-after', '7200'], {
        GSPC_RPC_URL: rail.rpcUrl,
      });
      assert.equal(none.status, 0, none.stderr);
      assert.match(
        none.stdout,
        /^reconcile at \S+ against eip155:8453, block \d+ \(\S+\)\nnothing to reconcile: no UNKNOWN payment, no FAILED one whose authorization was used, and no RESERVED one older than 7200 s\n$/,
      );
      const r = await gspc(['reconcile', '--json', '--data-dir', data, '--from-block', '0'], {
        GSPC_RPC_URL: rail.rpcUrl,
      });
      assert.equal(r.status, 0, r.stderr);
      const report = JSON.parse(r.stdout) as {
        entries: Array<{ action: string; nonce: string; chain: { authorization: string } | null }>;
        counts: Record<string, number>;
      };
      // What the chain showed: nothing for the parking step, the unused authorization for the judging.
      assert.deepEqual(
        report.entries.map((e) => e.chain?.authorization ?? null),
        [null, 'unused'],
      );
      assert.deepEqual(
        report.entries.map((e) => [e.action, e.nonce]),
        [
          ['abandoned', stale.nonce],
          ['pending', stale.nonce],
        ],
      );
      assert.deepEqual([report.counts.abandoned, report.counts.pending, report.counts.error], [1, 1, 0]);
    } finally {
      await rail.stop();
    }
  });
});
