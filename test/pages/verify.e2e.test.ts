/**
 * /gspc-verify in headless Chromium (issue 7): VALID for a real card (by id and pasted), INVALID
 * with the right reason for a tampered card, a wrong key, a withdrawn card and a card no root
 * covers; a whole bundle all VALID with its count; offers and receipts; never a request to the
 * server's verification routes, nothing from other origins, no console errors; and the page
 * without JavaScript. Run `npm run build` first (the script is served from dist/).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { buildApp } from '../../src/app.js';
import { readRailConfig } from '../../src/config.js';
import type { CardFile } from '../../src/core/evidence/card.js';
import { browser, browserMissing, DESKTOP, openPage, PHONE, screenshot } from '../helpers/browser.js';
import { demoApp, testSigning } from '../helpers/app.js';
import { freePort } from '../helpers/process.js';
import { receipt, receiptSignedBy, resealed, strangerKey, tampered } from './verify-fixtures.js';

// The page reads the keys at the DID's host (issue 36): the service is that host, on a port
// chosen first; the page is opened at 127.0.0.1, so the keys are read across origins.
const port = await freePort();
const ORIGIN = `http://localhost:${port}`;

describe('/gspc-verify in the browser', { skip: browserMissing() }, () => {
  const { state, signing } = demoApp(undefined, testSigning(undefined, `localhost:${port}`));
  const app = buildApp({
    state,
    logLevel: 'silent',
    baseUrl: ORIGIN,
    now: () => new Date(),
    products: { rail: readRailConfig({ GSPC_PAY_TO: `0x${'11'.repeat(20)}` }) },
  });
  after(() => app.close());
  let base = '';
  const requests: string[] = [];
  const json = async <T>(path: string): Promise<T> =>
    JSON.parse((await app.inject({ method: 'GET', url: path })).body) as T;

  before(async () => {
    await app.listen({ port, host: '127.0.0.1' });
    base = `http://127.0.0.1:${port}`;
  });

  /** A page at /gspc-verify with the script ready; every request it makes is recorded. */
  async function ready(
    viewport: { width: number; height: number } = DESKTOP,
    query = '',
  ): Promise<{ page: Page; errors: string[]; offOrigin: string[] }> {
    const p = await openPage(viewport);
    p.page.on('request', (r) => requests.push(r.url()));
    await p.page.goto(`${base}/gspc-verify${query}`);
    await p.page.waitForSelector('body[data-verify-ready="true"]');
    return p;
  }

  /** Waits for the result box, then reads its verdict and each check row. */
  async function result(page: Page, box = '#verify-result') {
    const el = page.locator(`${box}[data-state="done"], ${box}[data-state="error"]`);
    await el.waitFor({ timeout: 30_000 });
    const checks = await page.locator(`${box} table.verify-checks tbody tr`).evaluateAll((rows) =>
      rows.map((r) => ({
        check: r.getAttribute('data-check'),
        pass: r.children[1]?.textContent,
        detail: r.children[2]?.textContent,
      })),
    );
    return {
      state: await el.getAttribute('data-state'),
      result: await el.getAttribute('data-result'),
      text: await el.innerText(),
      checks,
    };
  }

  async function paste(page: Page, text: string) {
    // Short texts are typed in as a user's paste is (fill); a whole bundle (100+ KB) is set as the
    // field's value, which is what a paste ends with: fill inserts it as text input, which costs
    // Chromium seconds for that size and tests nothing more.
    if (text.length < 20_000) await page.fill('#card-json', text);
    else
      await page.locator('#card-json').evaluate((el, v) => {
        (el as unknown as { value: string }).value = v;
      }, text);
    await page.click('#verify-paste button[type="submit"]');
    return result(page);
  }

  const cards = () => [...state.current().release.evidence.cards.values()];
  const firstActive = (): CardFile => cards().find((c) => !state.current().release.evidence.withdrawn.has(c.sha256))!;

  it('says VALID for a real card loaded by id, with every check passing as POST /api/verify says', async () => {
    const { page, errors, offOrigin } = await ready();
    const card = firstActive();
    await page.fill('#card-id', card.sha256.slice(0, 16));
    await page.click('#verify-id button[type="submit"]');
    const r = await result(page);
    assert.equal(r.result, 'VALID', r.text);
    const served = (await app.inject({ method: 'POST', url: '/api/verify', payload: card })).json() as {
      results: { checks: { check: string; ok: boolean }[] }[];
    };
    assert.deepEqual(
      r.checks.map((c) => [c.check, c.pass]),
      served.results[0]!.checks.map((c) => [c.check, c.ok ? 'pass' : 'FAIL']),
    );
    assert.match(r.text, new RegExp(`Card ${card.sha256.slice(0, 16)}`));
    assert.equal(new URL(page.url()).searchParams.get('id'), card.sha256.slice(0, 16));
    assert.deepEqual(errors, []);
    assert.deepEqual(offOrigin, []);
  });

  it('checks the card a ?id= link names as soon as the page loads (the full sha256 works too)', async () => {
    const card = firstActive();
    const { page } = await ready(DESKTOP, `?id=${card.sha256}`);
    const r = await result(page);
    assert.equal(r.result, 'VALID', r.text);
  });

  it('says VALID for a real card pasted as JSON', async () => {
    const { page, errors } = await ready();
    const r = await paste(page, JSON.stringify(firstActive(), null, 2));
    assert.equal(r.result, 'VALID', r.text);
    assert.ok(r.checks.length >= 6 && r.checks.every((c) => c.pass === 'pass'));
    assert.deepEqual(errors, []);
  });

  it('says INVALID for a tampered card: the content address (and so the signature) fails', async () => {
    const { page } = await ready();
    const r = await paste(page, JSON.stringify(tampered(firstActive())));
    assert.equal(r.result, 'INVALID');
    const row = r.checks.find((c) => c.check === 'content_address')!;
    assert.equal(row.pass, 'FAIL');
    assert.match(row.detail!, /hash mismatch: the body hashes to [0-9a-f]{64}/);
    assert.match(r.text, /Why INVALID: content_address: hash mismatch/);
  });

  it('says INVALID for a wrong key: a kid the DID document does not list, or a listed kid whose key did not sign', async () => {
    const { page } = await ready();
    const unlisted = await paste(
      page,
      JSON.stringify(resealed(firstActive(), strangerKey(`${signing.did}#card-attestation-9`))),
    );
    assert.equal(unlisted.result, 'INVALID');
    const a = unlisted.checks.find((c) => c.check === 'signature')!;
    assert.equal(a.pass, 'FAIL');
    assert.match(
      a.detail!,
      new RegExp(`key not in the DID document: did:web:localhost%3A${port}#card-attestation-9 is not listed`),
    );
    assert.equal(unlisted.checks.find((c) => c.check === 'content_address')!.pass, 'pass');

    const forged = await paste(
      page,
      JSON.stringify(resealed(firstActive(), strangerKey(`${signing.did}#card-attestation-1`))),
    );
    assert.equal(forged.result, 'INVALID');
    assert.match(
      forged.checks.find((c) => c.check === 'signature')!.detail!,
      new RegExp(`bad signature: does not verify under did:web:localhost%3A${port}#card-attestation-1`),
    );
  });

  it('says INVALID for a withdrawn card, with the withdrawal ledger’s reason', async () => {
    const ledger = await json<{ entries: { sha256: string; reason: string }[] }>('/ledgers/withdrawals.json');
    assert.ok(ledger.entries.length > 0, 'the demo has withdrawn cards');
    const w = ledger.entries[0]!;
    const { page, errors } = await ready();
    await page.fill('#card-id', w.sha256.slice(0, 16));
    await page.click('#verify-id button[type="submit"]');
    const r = await result(page);
    assert.equal(r.result, 'INVALID');
    const row = r.checks.find((c) => c.check === 'not_withdrawn')!;
    assert.equal(row.pass, 'FAIL');
    assert.equal(row.detail, `withdrawn: ${w.reason}`);
    assert.equal(r.checks.find((c) => c.check === 'signature')!.pass, 'pass');
    assert.deepEqual(errors, []);
  });

  it('says INVALID for a validly signed card that no root covers: signature passes, under_root fails', async () => {
    const { page, errors } = await ready();
    const card = resealed(firstActive(), signing.keys.state('card-attestation-2'));
    const r = await paste(page, JSON.stringify(card));
    assert.equal(r.result, 'INVALID');
    const by = Object.fromEntries(r.checks.map((c) => [c.check, c]));
    assert.equal(by.content_address!.pass, 'pass');
    assert.equal(by.signature!.pass, 'pass');
    assert.match(
      by.signature!.detail!,
      new RegExp(`Ed25519 verified under did:web:localhost%3A${port}#card-attestation-2`),
    );
    assert.equal(by.under_root!.pass, 'FAIL');
    assert.equal(by.under_root!.detail, 'not under the current root');
    assert.deepEqual(errors, [], 'a card without a proof is not fetched as a 404');
  });

  it('checks a whole bundle dropped as a file: all VALID, with the count of /root.json', async () => {
    const bundleText = (await app.inject({ method: 'GET', url: '/cards-bundle.json' })).body;
    const bundle = JSON.parse(bundleText) as { cards: CardFile[] };
    const root = await json<{ leaf_count: number }>('/root.json');
    const { page, errors } = await ready();
    await page.setInputFiles('#card-file', {
      name: 'cards-bundle.json',
      mimeType: 'application/json',
      buffer: Buffer.from(bundleText),
    });
    const r = await result(page);
    assert.equal(r.result, 'VALID', r.text);
    const summary = page.locator('#verify-result .verify-summary');
    assert.equal(await summary.getAttribute('data-checked'), String(bundle.cards.length));
    assert.equal(await summary.getAttribute('data-valid'), String(root.leaf_count));
    assert.equal(await summary.getAttribute('data-invalid'), '0');
    assert.equal(
      await page.locator('#verify-result table.verify-bundle tbody tr[data-result="VALID"]').count(),
      bundle.cards.length,
    );
    assert.match(
      (await page.locator('#verify-result tr[data-check="root_recomputed"]').textContent()) ?? '',
      /pass\s*merkle_root recomputed from \d+ active cards/,
    );
    await screenshot(page, 'verify-desktop');
    assert.deepEqual(errors, []);
  });

  it('checks every published card from the button, the bundle pasted, and a part of it, the same way', async () => {
    const { page } = await ready();
    await page.click('#verify-served');
    const r = await result(page);
    assert.equal(r.result, 'VALID', r.text);
    const n = (await json<{ cards: unknown[] }>('/cards-bundle.json')).cards.length;
    assert.equal(await page.locator('#verify-result .verify-summary').getAttribute('data-valid'), String(n));
    // The same bundle pasted.
    const pasted = await paste(page, (await app.inject({ method: 'GET', url: '/cards-bundle.json' })).body);
    assert.equal(pasted.result, 'VALID', pasted.text);
    assert.equal(await page.locator('#verify-result .verify-summary').getAttribute('data-valid'), String(n));
    // A part of the bundle: each card is shown with its own proof.
    const part = await paste(
      page,
      JSON.stringify({ cards: (await json<{ cards: unknown[] }>('/cards-bundle.json')).cards.slice(0, 2) }),
    );
    assert.equal(part.result, 'VALID', part.text);
  });

  it('says what is wrong with input that is not a card', async () => {
    const { page, errors } = await ready();
    const r = await paste(page, '{"hello": 1');
    assert.equal(r.state, 'error');
    assert.match(r.text, /That is not JSON/);
    const s = await paste(page, '{"schema": "other"}');
    assert.match(s.text, /not a card \(schema card-v1\) nor a cards bundle/);
    assert.deepEqual(errors, []);
  });

  it('offers and receipts: VALID, tampered INVALID, unknown kid INVALID, another DID UNVERIFIABLE_KEY', async () => {
    const model = firstActive().subject;
    const challenge = await app.inject({
      method: 'GET',
      url: `/api/request-attestation?subject=${encodeURIComponent(model)}`,
    });
    const offer = (
      challenge.json() as { extensions: { 'offer-receipt': { info: { offers: { signature: string }[] } } } }
    ).extensions['offer-receipt'].info.offers[0]!.signature;
    const { page, errors } = await ready();
    const check = async (jws: string) => {
      await page.fill('#jws-text', jws);
      await page.click('#verify-jws button[type="submit"]');
      const r = await result(page, '#jws-result');
      const reason = await page.locator('#jws-result .verify-jws-reason').textContent();
      const served = (await app.inject({ method: 'POST', url: '/api/receipts/verify', payload: { jws } })).json() as {
        result: string;
        reason: string;
      };
      return { ...r, reason, served };
    };
    const ok = await check(offer);
    assert.equal(ok.result, 'VALID');
    assert.match(ok.text, /"amount": "20000"/, 'the verified payload is shown');
    // Issue 37: an offer is named an offer, which proves no payment; never read as a receipt.
    assert.match(ok.text, /JWS \(offer\)/);
    assert.equal(await page.locator('#jws-result .verify-jws-kind').getAttribute('data-kind'), 'offer');
    assert.match(ok.text, /It proves no payment/);
    const paid = await check(receipt(signing.inputs.boardKey));
    assert.equal(paid.result, 'VALID');
    assert.equal(await page.locator('#jws-result .verify-jws-kind').getAttribute('data-kind'), 'receipt');
    assert.match(paid.text, /JWS \(receipt\)/);

    const [h, p, s] = offer.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>;
    const canonical = JSON.stringify(
      Object.fromEntries(Object.entries({ ...payload, amount: '1' }).sort(([a], [b]) => (a < b ? -1 : 1))),
    );
    const bad = await check(`${h}.${Buffer.from(canonical).toString('base64url')}.${s}`);
    assert.equal(bad.result, 'INVALID');
    assert.equal(bad.reason, 'Reason: signature does not verify under the resolved key.');
    assert.equal(bad.served.reason, 'signature does not verify under the resolved key');
    assert.doesNotMatch(bad.text, /"amount"/, 'an unverified payload is never shown');

    const edited = await check(`${h}.${Buffer.from(JSON.stringify(payload, null, 1)).toString('base64url')}.${s}`);
    assert.equal(edited.result, 'INVALID');
    assert.equal(edited.reason, `Reason: ${edited.served.reason}.`);

    const unlisted = await check(receiptSignedBy(`${signing.did}#card-attestation-9`));
    assert.equal(unlisted.result, 'INVALID');
    assert.equal(unlisted.reason, 'Reason: kid is not listed among verification methods.');
    const foreign = await check(receiptSignedBy('did:web:example.org#board-attestation-1'));
    assert.equal(foreign.result, 'UNVERIFIABLE_KEY');
    assert.equal(foreign.served.result, 'UNVERIFIABLE_KEY');
    assert.deepEqual(errors, []);
  });

  it('a card’s tlog-proof (issue 42): VALID under the DID host’s board key; another index, another card or an impostor’s checkpoint INVALID with its code', async () => {
    const { page, errors } = await ready();
    const card = firstActive();
    const proof = (await app.inject({ method: 'GET', url: `/cards/${card.sha256.slice(0, 16)}.tlog-proof` })).body;
    const check = async (sha: string, text: string) => {
      await page.fill('#tlog-card', sha);
      await page.fill('#tlog-text', text);
      await page.click('#verify-tlog button[type="submit"]');
      const r = await result(page, '#tlog-result');
      const code = await page
        .locator('#tlog-result .verify-tlog-code')
        .getAttribute('data-code', { timeout: 100 })
        .catch(() => null);
      return { ...r, code };
    };
    const ok = await check(card.sha256, proof);
    assert.equal(ok.result, 'VALID', ok.text);
    assert.match(ok.text, /The card is entry \d+ of localhost:\d+\/log/);
    const index = Number(/\nindex (\d+)\n/.exec(proof)![1]);
    const moved = await check(card.sha256, proof.replace(`\nindex ${index}\n`, `\nindex ${index + 1}\n`));
    assert.equal(moved.result, 'INVALID');
    assert.equal(moved.code, 'tlog_proof_not_included');
    const other = cards().find((c) => c.sha256 !== card.sha256)!;
    assert.equal((await check(other.sha256, proof)).code, 'tlog_proof_not_included');
    // A checkpoint signed under the origin's name by another key: the proof's own signer is never trusted.
    const [head, note] = [proof.slice(0, proof.indexOf('\n\n') + 2), proof.slice(proof.indexOf('\n\n') + 2)];
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    const { signNote } = await import('../../src/core/evidence/note/signed-note.js');
    const forged = await check(
      card.sha256,
      head + signNote(text, { name: text.split('\n')[0]!, privateKey: Buffer.alloc(32, 9) }),
    );
    assert.equal(forged.result, 'INVALID');
    assert.equal(forged.code, 'tlog_proof_log_signature');
    assert.equal((await check(card.sha256, `${proof}x`)).code, 'tlog_proof_malformed');
    assert.deepEqual(errors, []);
  });

  it('at phone width: no page-level horizontal scroll, with a result shown', async () => {
    const { page, errors, offOrigin } = await ready(PHONE);
    const ledger = await json<{ entries: { sha256: string }[] }>('/ledgers/withdrawals.json');
    await page.fill('#card-id', ledger.entries[0]!.sha256.slice(0, 16));
    await page.click('#verify-id button[type="submit"]');
    assert.equal((await result(page)).result, 'INVALID');
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    assert.ok(Number(overflow) <= 0, `the page scrolls sideways by ${String(overflow)} px`);
    await screenshot(page, 'verify-phone');
    assert.deepEqual(errors, []);
    assert.deepEqual(offOrigin, []);
  });

  it('without JavaScript: the forms, the rules and the links are there, and it says verification needs the script', async () => {
    const context = await (await browser()).newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    try {
      await withoutScript(await context.newPage());
    } finally {
      await context.close();
    }
  });

  async function withoutScript(page: Page): Promise<void> {
    const card = firstActive();
    const res = await page.goto(`${base}/gspc-verify?id=${card.sha256.slice(0, 16)}`);
    assert.equal(res?.status(), 200);
    assert.equal(await page.locator('h1').count(), 1);
    assert.match(await page.locator('main').innerText(), /Verification needs this page's script/);
    assert.match(await page.locator('main').innerText(), new RegExp(`gspc verify ${ORIGIN}`));
    assert.equal(await page.locator('#verify-paste button[type="submit"]').isDisabled(), true);
    assert.equal(await page.locator(`a[href="/cards/${card.sha256.slice(0, 16)}.json"]`).count(), 1);
    for (const path of [
      '/.well-known/did.json',
      '/root.json',
      '/cards-bundle.json',
      '/ledgers/withdrawals.json',
      '/log/checkpoint',
    ]) {
      assert.ok((await page.locator(`a[href="${path}"]`).count()) > 0, path);
    }
    // The id form works without the script: it navigates to ?id=.
    await page.fill('#card-id', card.sha256.slice(0, 16));
    await Promise.all([page.waitForURL(/\?id=/), page.click('#verify-id button[type="submit"]')]);
    assert.match(await page.locator('main').innerText(), new RegExp(`Card ${card.sha256.slice(0, 16)}`));
  }

  it('never asks the server for a verdict: no request to /api/verify or /api/receipts/verify; another origin only for the DID host’s keys', () => {
    assert.ok(requests.length > 20, `${requests.length} requests recorded`);
    const verifyCalls = requests.filter((u) => /\/api\/(verify|receipts\/verify)/.test(new URL(u).pathname));
    assert.deepEqual(verifyCalls, []);
    const elsewhere = new Set(requests.filter((u) => !u.startsWith(base) && !u.startsWith('data:')));
    assert.deepEqual([...elsewhere], [`${ORIGIN}/.well-known/did.json`]);
  });
});

describe('/gspc-verify as served HTML', () => {
  const { app, state } = demoApp();
  const get = (url: string) => app.inject({ method: 'GET', url });

  it('renders the root and withdrawal figures the service serves, never typed ones', async () => {
    const r = await get('/gspc-verify');
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-security-policy']), /default-src 'none'/);
    const root = JSON.parse((await get('/root.json')).body) as {
      leaf_count: number;
      merkle_root: string;
      as_of: string;
    };
    const ledger = JSON.parse((await get('/ledgers/withdrawals.json')).body) as { entries: unknown[] };
    assert.match(r.body, new RegExp(`<strong data-field="leaf_count">${root.leaf_count}</strong>`));
    assert.match(r.body, new RegExp(`<code data-field="merkle_root">${root.merkle_root.slice(0, 16)}…</code>`));
    assert.match(r.body, new RegExp(`<strong data-field="withdrawn">${ledger.entries.length}</strong>`));
    assert.equal((r.body.match(/<h1>/g) ?? []).length, 1);
    assert.match(r.body, /<script type="module" src="\/assets\/verify.js"><\/script>/);
    assert.doesNotMatch(r.body, /fetch\(|\/api\/verify['"]/);
  });

  it('query errors are a 400 page that keeps the forms; an unknown card is a 404 page', async () => {
    for (const [q, status, text] of [
      ['?id=XYZ', 400, 'a card id is the first 16 hex characters'],
      ['?id=', 400, 'query parameter &#39;id&#39; is empty'],
      ['?card=1', 400, 'unknown query parameter &#39;card&#39;'],
      ['?id=0000000000000000', 404, 'No card with id'],
    ] as const) {
      const r = await get(`/gspc-verify${q}`);
      assert.equal(r.statusCode, status, q);
      assert.match(r.headers['content-type'] as string, /text\/html/);
      assert.ok(r.body.includes(text), `${q}: ${text}`);
      assert.match(r.body, /<form id="verify-id"/);
      assert.match(r.body, /"id":null/);
    }
    const card = [...state.current().release.evidence.cards.values()][0]!;
    const ok = await get(`/gspc-verify?id=${card.sha256}`);
    assert.equal(ok.statusCode, 200);
    assert.ok(ok.body.includes(`"id":"${card.sha256}"`));
    const wrong = await get(`/gspc-verify?id=${card.sha256.slice(0, 16)}${'0'.repeat(48)}`);
    assert.equal(wrong.statusCode, 404);
  });
});
