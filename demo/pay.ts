/**
 * `npm run demo:pay`: one complete local payment, nothing mocked but the chain's locality.
 * Starts anvil on chain 8453 with Circle's FiatTokenV2_2 at the Base USDC address, the reference
 * x402 facilitator, and `gspc serve` on the bundled demo (its own temporary data directory and
 * SQLite ledger); pays for a commission receipt with @x402/fetch; prints the receipt and checks it
 * three ways (the receipt JWS through POST /api/receipts/verify and through @x402/extensions, the
 * commission receipt's own content address, signature and inclusion proofs); then stops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  extractReceiptFromResponse,
  verifyReceiptSignatureJWS,
  type JWSSignedReceipt,
} from '@x402/extensions/offer-receipt';
import { readConfig } from '../src/config.js';
import { startService } from '../src/service.js';
import { checkCommissionReceipt } from './pay-check.js';
import { payingFetch, startLocalRail } from './local-rail/index.js';

const say = (line = '') => process.stdout.write(`${line}\n`);
const usdc = (atomic: bigint) => `${atomic / 1_000_000n}.${(atomic % 1_000_000n).toString().padStart(6, '0')} USDC`;

async function main(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gspc-demo-pay-'));
  const rail = await startLocalRail();
  say(`chain      anvil ${rail.rpcUrl}, chain id ${rail.chainId}; USDC (Circle FiatTokenV2_2) at ${rail.usdc}`);
  say(`facilitator ${rail.facilitatorUrl}`);
  const port = Number(process.env.PORT ?? 8090);
  const config = readConfig({
    ...process.env,
    PORT: String(port),
    GSPC_DATA_DIR: dataDir,
    GSPC_LOG_LEVEL: 'warn',
    GSPC_RELOAD_INTERVAL_MS: '0',
    GSPC_PAY_TO: rail.payTo.address,
    GSPC_FACILITATOR_URL: rail.facilitatorUrl!,
    GSPC_ASSET: rail.usdc,
  });
  const app = await startService(config, {
    demoCorpusDir: fileURLToPath(new URL('./corpus', import.meta.url)),
    demo: true,
  });
  try {
    const base = config.baseUrl;
    const cards = (await (await fetch(`${base}/cards/index.json`)).json()) as {
      cards: { subject: string; surface: string }[];
    };
    const subject = cards.cards.find((c) => c.surface === 'board.measurement')!.subject;
    const url = `${base}/api/request-attestation?subject=${encodeURIComponent(subject)}`;
    say(`service    ${base} (demo release, ledger ${join(dataDir, 'ledger.sqlite')})`);
    say();
    const challenge = await fetch(url);
    const offer = (await challenge.json()) as {
      accepts: { amount: string; payTo: string }[];
      svc: { signer: { receipt_will_be: string } };
    };
    say(`GET ${url}`);
    say(
      `  → ${challenge.status}: ${usdc(BigInt(offer.accepts[0]!.amount))} to ${offer.accepts[0]!.payTo}; receipt will be ${offer.svc.signer.receipt_will_be}`,
    );
    const before = { payer: await rail.balanceOf(rail.payer.address), payTo: await rail.balanceOf(rail.payTo.address) };
    const res = await payingFetch(rail)(url);
    const body = await res.text();
    if (res.status !== 200) {
      say(`payment failed: ${res.status} ${body}`);
      return 1;
    }
    const after = { payer: await rail.balanceOf(rail.payer.address), payTo: await rail.balanceOf(rail.payTo.address) };
    const settle = JSON.parse(Buffer.from(res.headers.get('payment-response')!, 'base64').toString('utf8')) as {
      transaction: string;
      payer: string;
    };
    say(`  paid with @x402/fetch → 200; transaction ${settle.transaction}`);
    say(`  payer ${usdc(before.payer)} → ${usdc(after.payer)}; payee ${usdc(before.payTo)} → ${usdc(after.payTo)}`);
    say();
    say('commission receipt (card-v0):');
    const shown = JSON.parse(body) as { payload: { reserve: Record<string, unknown>[] } };
    const more = shown.payload.reserve.length - 1;
    shown.payload.reserve = shown.payload.reserve
      .slice(0, 1)
      .map((r) => ({ ...r, root_inclusion: '{ leaf_index, leaf_count, merkle_root, proof[] … }' }));
    say(JSON.stringify(shown, null, 2));
    if (more > 0) say(`  (and ${more} more reserved card(s), each with its inclusion proof)`);
    say();
    const receipt = extractReceiptFromResponse(res) as JWSSignedReceipt;
    const byService = (await (
      await fetch(`${base}/api/receipts/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jws: receipt.signature }),
      })
    ).json()) as { result: string; reason: string | null };
    const byLibrary = await verifyReceiptSignatureJWS(receipt);
    const own = await checkCommissionReceipt(JSON.parse(body) as Record<string, unknown>, base);
    say('verification:');
    say(
      `  payment receipt via POST /api/receipts/verify: ${byService.result}${byService.reason ? ` (${byService.reason})` : ''}`,
    );
    say(
      `  payment receipt via @x402/extensions (did:web resolved): ${byLibrary.transaction === settle.transaction ? 'VALID, names the transaction' : 'MISMATCH'}`,
    );
    for (const line of own.lines) say(`  ${line}`);
    const ok =
      byService.result === 'VALID' &&
      byLibrary.transaction === settle.transaction &&
      own.ok &&
      before.payer - after.payer === BigInt(offer.accepts[0]!.amount);
    say();
    say(ok ? 'demo: OK' : 'demo: FAILED');
    return ok ? 0 : 1;
  } finally {
    await app.close();
    await rail.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`demo:pay failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
