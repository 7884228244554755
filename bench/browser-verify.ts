/**
 * Measurement 8: in-browser verification (issue 7). The /gspc-verify page checks a 10,000-card
 * bundle in headless Chromium (WebCrypto, the shared verifier bundled for the browser) against
 * `gspc verify` checking the same cards of the same release in this process (node:crypto), in
 * the same run; the figure is cards/s of the page ÷ cards/s of `gspc verify`.
 *
 * The release: a synthetic corpus of 100 model-comparison axes × 100 models given as aggregate
 * results (no per-item rows), published and signed as any release is (10,000 signed cards, the
 * public root, the card log and its checkpoint), served by the real app on 127.0.0.1.
 *
 * What is timed, on both sides, is the same work: read the DID document, the root, the ledgers
 * and the card log from the service over HTTP; check the root's signature; recompute the root
 * from the bundle's cards and the log's root from its entries, and open the checkpoint with the
 * board key; then every card (content address, signature, ledgers, root and log membership).
 *   - page: the bundle file is handed to the page's file input (setInputFiles); the page's own
 *     timer runs from the file's selection to the last verdict (reading the file, JSON.parse, the
 *     checks), before the table is drawn; page load is excluded. The wall time seen from here,
 *     drawing included, is reported too.
 *   - gspc verify: `verifyReleaseCards` of src/verify/release-verifier.ts (the DID keys, the root signature
 *     and its recomputation from /cards-bundle.json, the card log with src/verify/log-verifier.ts,
 *     and the card loop), fetched from the same server with its urlSource. The whole
 *     `gspc verify` (which also checks the witness binding, the per-item manifest and re-derives
 *     every card figure and board row) is run once as well and reported for context.
 * Alternating rounds after one unmeasured warm-up of each; the medians are compared. Every card
 * must come out VALID on both sides, else the measurement is invalid.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { ServedState } from '../src/serve/served-state.js';
import { keygen } from '../src/keys/key-store.js';
import { signingContext } from '../src/keys/signing.js';
import { loadRelease } from '../src/release/load.js';
import { publishRelease } from '../src/release/publish.js';
import { urlSource } from '../src/verify/release-source.js';
import { verifyRelease, verifyReleaseCards } from '../src/verify/release-verifier.js';

export const VERIFY_AXES = 100;
export const VERIFY_MODELS = 100;
const ROUNDS = 3;
const CHROMIUM = process.env.GSPC_CHROMIUM ?? '/usr/bin/chromium';
const VERIFY_ASSET = fileURLToPath(new URL('../dist/pages/assets/verify.js', import.meta.url));
const PAGE_TIMEOUT_MS = 600_000;

export type VerifySide = 'page (Chromium, WebCrypto)' | 'gspc verify (Node, node:crypto)';
export interface BrowserVerifyRun {
  round: number;
  side: VerifySide;
  ms: number;
  wallMs: number | null;
  checked: number;
  valid: number;
}
export interface BrowserVerifyFigures {
  cards: number;
  bundleBytes: number;
  publishMs: number;
  chromium: string;
  runs: BrowserVerifyRun[];
  pageMs: number;
  nodeMs: number;
  pageCardsPerS: number;
  nodeCardsPerS: number;
  /** page cards/s ÷ gspc verify cards/s (medians of the measured rounds). */
  ratio: number;
  full: { ms: number; ok: boolean; checked: number; failed: string[] };
  problems: string[];
}
export type BrowserVerifyResult = BrowserVerifyFigures | { skipped: string };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** 100 axes × 100 models of aggregate results: a valid corpus whose release has 10,000 cards. */
export function writeVerifyCorpus(dir: string, axes = VERIFY_AXES, models = VERIFY_MODELS): void {
  mkdirSync(join(dir, 'axes'), { recursive: true });
  const slugs = Array.from({ length: axes }, (_, i) => `verify-axis-${String(i + 1).padStart(3, '0')}`);
  const names = Array.from({ length: models }, (_, i) => `bench/model-${String(i + 1).padStart(3, '0')}`);
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  writeFileSync(
    join(dir, 'board.json'),
    json({
      schema: 'svc.gspc-corpus/1',
      issuer: 'SYNTHETIC BENCH CORPUS (bench/browser-verify.ts); no model was measured.',
      doi: '10.5281/zenodo.0000000 (bench identifier; no such record exists)',
      as_of: '2026-11-01T00:00:00Z',
      measured_on: {
        model: 'Generated aggregate results',
        date: 'Synthetic bench run',
        grading: 'Exact-label match against the gold label',
      },
      own_models: [],
      axes: slugs,
      limitations: ['SYNTHETIC: generated for the in-browser verification benchmark.'],
    }),
  );
  slugs.forEach((axis, a) =>
    writeFileSync(
      join(dir, 'axes', `${axis}.json`),
      json({
        axis,
        family: 'behavioural',
        kind: 'model-comparison',
        status: 'MEASURED',
        title: `Verification benchmark axis ${a + 1}`,
        bench: 'bench-verify-mcq',
        task: 'Choose the correct option',
        dataset: `bench/verify-${a + 1}`,
        n: 400,
        results: names.map((model, m) => ({ model, correct: 100 + ((a * 7 + m * 13) % 250), parsed: 390, total: 400 })),
      }),
    ),
  );
}

interface Counted {
  ms: number;
  checked: number;
  valid: number;
}

/** `gspc verify`'s card checks (`verifyReleaseCards`: keys, root, log, every card) against the running service. */
export async function gspcVerifyCards(base: string): Promise<Counted> {
  const t0 = performance.now();
  const problems: string[] = [];
  const add = (check: string, ok: boolean, detail: string) => {
    if (!ok) problems.push(`${check}: ${detail}`);
    return ok;
  };
  const cards = await verifyReleaseCards(urlSource(base), add);
  const ms = performance.now() - t0;
  if (cards === undefined || problems.length > 0) throw new Error(`gspc verify: ${problems.join('; ')}`);
  return { ms, checked: cards.bundle.cards.length, valid: cards.bundle.cards.length - cards.invalid.length };
}

/** One check of the whole bundle by the page, in a fresh browser context (page load not timed). */
async function pageVerify(
  browser: Browser,
  base: string,
  bundle: Buffer,
): Promise<Counted & { wallMs: number; result: string | null }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/gspc-verify`);
    await page.waitForSelector('body[data-verify-ready="true"]', { timeout: 30_000 });
    const t0 = performance.now();
    await page.setInputFiles('#card-file', { name: 'cards-bundle.json', mimeType: 'application/json', buffer: bundle });
    const box = page.locator('#verify-result[data-state="done"], #verify-result[data-state="error"]');
    await box.waitFor({ timeout: PAGE_TIMEOUT_MS });
    const wallMs = performance.now() - t0;
    if ((await box.getAttribute('data-state')) === 'error')
      throw new Error(`the page could not check the bundle: ${await box.innerText()}`);
    if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);
    const summary = page.locator('#verify-result .verify-summary');
    return {
      ms: Number(await box.getAttribute('data-ms')),
      wallMs,
      result: await box.getAttribute('data-result'),
      checked: Number(await summary.getAttribute('data-checked')),
      valid: Number(await summary.getAttribute('data-valid')),
    };
  } finally {
    await context.close();
  }
}

export async function measureBrowserVerify(tmp: string, log: (line: string) => void): Promise<BrowserVerifyResult> {
  if (!existsSync(CHROMIUM))
    return { skipped: `no Chromium at ${CHROMIUM} (install Debian's chromium, or set GSPC_CHROMIUM)` };
  if (!existsSync(VERIFY_ASSET))
    return { skipped: 'the page script dist/pages/assets/verify.js is not built (run npm run build)' };
  const dir = join(tmp, 'browser-verify');
  writeVerifyCorpus(join(dir, 'corpus'));
  keygen(join(dir, 'keys'));
  // The verifiers read the keys at the DID's host (issue 36): the service is that host, on a port
  // chosen first (a free one, as the OS gives it).
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const signing = signingContext(join(dir, 'keys'), `localhost:${port}`);
  let t = performance.now();
  const { dir: releaseDir } = publishRelease(join(dir, 'corpus'), join(dir, 'data'), signing.inputs);
  const publishMs = performance.now() - t;
  const state = new ServedState(loadRelease(releaseDir), {
    did: signing.did,
    boardKey: signing.inputs.boardKey,
    published: signing.keys.published,
  });
  const cards = state.current().release.evidence.root.leaf_count;
  log(
    `  published ${cards.toLocaleString('en-US')} signed cards (${VERIFY_AXES} axes × ${VERIFY_MODELS} models) in ${(publishMs / 1000).toFixed(1)} s`,
  );
  const app = buildApp({ state, logLevel: 'silent' });
  await app.listen({ port, host: '127.0.0.1' });
  const base = `http://localhost:${port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const problems: string[] = [];
  const runs: BrowserVerifyRun[] = [];
  try {
    const bundle = Buffer.from(await (await fetch(`${base}/cards-bundle.json`)).arrayBuffer());
    const chromiumVersion = browser.version();
    log(
      `  bundle ${(bundle.length / 1024 / 1024).toFixed(1)} MB; Chromium ${chromiumVersion}; warm-up of each side, then ${ROUNDS} alternating rounds`,
    );
    await gspcVerifyCards(base);
    await pageVerify(browser, base, bundle);
    for (let round = 1; round <= ROUNDS; round++) {
      const n = await gspcVerifyCards(base);
      runs.push({
        round,
        side: 'gspc verify (Node, node:crypto)',
        ms: n.ms,
        wallMs: null,
        checked: n.checked,
        valid: n.valid,
      });
      const p = await pageVerify(browser, base, bundle);
      runs.push({
        round,
        side: 'page (Chromium, WebCrypto)',
        ms: p.ms,
        wallMs: p.wallMs,
        checked: p.checked,
        valid: p.valid,
      });
      if (p.result !== 'VALID') problems.push(`round ${round}: the page says ${String(p.result)}`);
      log(
        `  round ${round}: gspc verify ${n.ms.toFixed(0)} ms, page ${p.ms.toFixed(0)} ms (wall ${p.wallMs.toFixed(0)} ms)`,
      );
    }
    for (const r of runs)
      if (r.checked !== cards || r.valid !== cards)
        problems.push(`round ${r.round} ${r.side}: ${r.valid} of ${r.checked} VALID, expected ${cards} of ${cards}`);
    t = performance.now();
    const report = await verifyRelease(urlSource(base));
    const full = {
      ms: performance.now() - t,
      ok: report.ok,
      checked: report.cards.checked,
      failed: report.checks.filter((c) => !c.ok).map((c) => c.check),
    };
    log(
      `  the whole gspc verify (every check of the release): ${full.ms.toFixed(0)} ms, ${full.ok ? 'VALID' : `INVALID (${full.failed.join(', ')})`}`,
    );
    if (!full.ok) problems.push(`the whole gspc verify failed: ${full.failed.join(', ')}`);
    const side = (s: VerifySide) => median(runs.filter((r) => r.side === s).map((r) => r.ms));
    const pageMs = side('page (Chromium, WebCrypto)');
    const nodeMs = side('gspc verify (Node, node:crypto)');
    const pageCardsPerS = cards / (pageMs / 1000);
    const nodeCardsPerS = cards / (nodeMs / 1000);
    return {
      cards,
      bundleBytes: bundle.length,
      publishMs,
      chromium: chromiumVersion,
      runs,
      pageMs,
      nodeMs,
      pageCardsPerS,
      nodeCardsPerS,
      ratio: pageCardsPerS / nodeCardsPerS,
      full,
      problems,
    };
  } finally {
    await browser.close();
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const tmp = mkdtempSync(join(tmpdir(), 'gspc-bench-'));
  try {
    const { browserVerifySection } = await import('./report.js');
    process.stdout.write(
      `${browserVerifySection(await measureBrowserVerify(tmp, (s) => process.stdout.write(`${s}\n`)))}\n`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
