/**
 * §16. Axis pages and agent answers at 100, 200 and 1,000 models (issue 39). For each size, a
 * synthetic corpus (bench/many-models.ts: one model-comparison axis, `BENCH_AXIS_ITEMS` items,
 * evenly spread skills) is published, signed and served by the real app on 127.0.0.1, and:
 *   - the every-model document `/api/models?axis=` is built by its first reader (timed; its bytes);
 *   - the axis page `/dashboard/axes/<slug>` is read over HTTP twice (the first read renders it;
 *     timed, its HTML bytes);
 *   - headless Chromium loads the page and waits for both plots to be drawn (`data-drawn`), in a
 *     fresh context each round; the figure is the page's own clock (`performance.now()`, from
 *     navigation start) when both are drawn, median of the rounds; the wall time seen from here is
 *     reported beside it;
 *   - the agent answers: MCP `gspc_axis` (first page), the A2A axis-lookup and the AG-UI snapshot,
 *     in bytes (each must stay within 64 kB).
 * Goal (issue 39): at 1,000 models the page's HTML at most 1 MB and drawn in under 2 s.
 */
import { createServer, type AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium, type Browser } from 'playwright-core';
import { buildApp, composeService } from '../src/app.js';
import { keygen } from '../src/keys/key-store.js';
import { signingContext } from '../src/keys/signing.js';
import { loadRelease } from '../src/release/load.js';
import { publishRelease } from '../src/release/publish.js';
import { ServedState } from '../src/serve/served-state.js';
import { agentAnswerSizes, type AnswerSizes } from './agent-answers.js';
import { MANY_AXIS, writeManyModelsCorpus } from './many-models.js';

export const AXIS_PAGE_TITLE = 'Axis pages and agent answers at 1,000 models';
export const AXIS_PAGE_SIZES = [100, 200, 1000] as const;
/** The goals of issue 39, at 1,000 models. */
export const PAGE_MAX_BYTES = 1_000_000;
export const PAGE_MAX_MS = 2_000;
export const ANSWER_MAX_BYTES = 64 * 1024;
const ROUNDS = 3;
const CHROMIUM = process.env.GSPC_CHROMIUM ?? '/usr/bin/chromium';

export interface AxisPageFigures {
  models: number;
  items: number;
  pairs: number;
  publishMs: number;
  documentMs: number;
  documentBytes: number;
  /** First read of the page (renders it) and second. */
  pageMs: [number, number];
  pageBytes: number;
  /** Median of the rounds: the page's clock when both plots are drawn; and the wall time from here. */
  drawnMs: number | null;
  drawnRunsMs: number[];
  wallMs: number | null;
  answers: AnswerSizes;
}

export type AxisPageResult = { sizes: AxisPageFigures[]; chromium: string | null; skipped?: string };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

/** One load of the page in a fresh context: the page's clock when both plots are drawn, and the wall time. */
async function drawPage(browser: Browser, url: string): Promise<{ drawn: number; wall: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const t0 = performance.now();
    const r = await page.goto(url);
    if (r?.status() !== 200) throw new Error(`${url} answered ${r?.status()}`);
    const drawn = (await page.evaluate(
      `new Promise((resolve) => {
        const done = () => document.querySelectorAll('figure.plot[data-drawn="true"] svg').length === 2;
        const check = () => (done() ? resolve(performance.now()) : requestAnimationFrame(check));
        check();
      })`,
    )) as number;
    const wall = performance.now() - t0;
    if (errors.length > 0) throw new Error(`the page threw: ${errors.join('; ')}`);
    return { drawn, wall };
  } finally {
    await context.close();
  }
}

async function measureSize(
  tmp: string,
  models: number,
  items: number,
  browser: Browser | null,
  log: (line: string) => void,
): Promise<AxisPageFigures> {
  const dir = join(tmp, `axis-page-${models}`);
  writeManyModelsCorpus(join(dir, 'corpus'), { models, items, positiveLabel: true });
  keygen(join(dir, 'keys'));
  const port = await freePort();
  const signing = signingContext(join(dir, 'keys'), `localhost:${port}`);
  let t = performance.now();
  const { dir: releaseDir } = publishRelease(join(dir, 'corpus'), join(dir, 'data'), signing.inputs);
  const publishMs = performance.now() - t;
  const state = new ServedState(loadRelease(releaseDir), {
    did: signing.did,
    boardKey: signing.inputs.boardKey,
    published: signing.keys.published,
    cardKey: signing.keys.state('card-attestation-2'),
  });
  const app = buildApp({ state, logLevel: 'silent' });
  await app.listen({ port, host: '127.0.0.1' });
  const base = `http://localhost:${port}`;
  try {
    t = performance.now();
    const doc = await fetch(`${base}/api/models?axis=${MANY_AXIS}`);
    const documentBytes = (await doc.arrayBuffer()).byteLength;
    const documentMs = performance.now() - t;
    if (doc.status !== 200) throw new Error(`/api/models answered ${doc.status}`);
    const pageMs: number[] = [];
    let pageBytes = 0;
    for (let i = 0; i < 2; i++) {
      t = performance.now();
      const r = await fetch(`${base}/dashboard/axes/${MANY_AXIS}`);
      pageBytes = (await r.arrayBuffer()).byteLength;
      pageMs.push(performance.now() - t);
      if (r.status !== 200) throw new Error(`the axis page answered ${r.status}`);
    }
    const answers = await agentAnswerSizes(composeService({ state, baseUrl: base }).read, MANY_AXIS);
    const runs: { drawn: number; wall: number }[] = [];
    if (browser) {
      await drawPage(browser, `${base}/dashboard/axes/${MANY_AXIS}`); // warm-up, not counted
      for (let round = 0; round < ROUNDS; round++)
        runs.push(await drawPage(browser, `${base}/dashboard/axes/${MANY_AXIS}`));
    }
    const f: AxisPageFigures = {
      models,
      items,
      pairs: ((models + 1) * models) / 2,
      publishMs,
      documentMs,
      documentBytes,
      pageMs: [pageMs[0]!, pageMs[1]!],
      pageBytes,
      drawnMs: runs.length > 0 ? median(runs.map((r) => r.drawn)) : null,
      drawnRunsMs: runs.map((r) => r.drawn),
      wallMs: runs.length > 0 ? median(runs.map((r) => r.wall)) : null,
      answers,
    };
    log(
      `  ${models} models: document ${(documentMs / 1000).toFixed(1)} s (${(documentBytes / 1e6).toFixed(1)} MB), page ${(pageBytes / 1e3).toFixed(0)} kB in ${pageMs[0]!.toFixed(0)} / ${pageMs[1]!.toFixed(0)} ms, drawn ${f.drawnMs === null ? 'n/a' : `${f.drawnMs.toFixed(0)} ms`}, largest agent answer ${(Math.max(...Object.values(answers)) / 1024).toFixed(1)} kB`,
    );
    return f;
  } finally {
    await app.close();
  }
}

export async function measureAxisPages(
  tmp: string,
  items: number,
  log: (line: string) => void,
  sizes: readonly number[] = AXIS_PAGE_SIZES,
): Promise<AxisPageResult> {
  const skipped = existsSync(CHROMIUM)
    ? undefined
    : `no Chromium at ${CHROMIUM}: the drawing time is not measured (install Debian's chromium, or set GSPC_CHROMIUM)`;
  const browser = skipped
    ? null
    : await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
  try {
    const out: AxisPageFigures[] = [];
    for (const models of sizes) out.push(await measureSize(tmp, models, items, browser, log));
    return { sizes: out, chromium: browser?.version() ?? null, ...(skipped && { skipped }) };
  } finally {
    await browser?.close();
  }
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} kB`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'BELOW GOAL');

export function axisPageSection(r: AxisPageResult): string {
  const rows = r.sizes.map((f) => {
    const largest = Math.max(...Object.values(f.answers));
    return `| ${f.models.toLocaleString('en')} | ${f.pairs.toLocaleString('en')} | ${(f.publishMs / 1000).toFixed(1)} s | ${(f.documentMs / 1000).toFixed(1)} s, ${(f.documentBytes / 1e6).toFixed(1)} MB | ${(f.pageBytes / 1e3).toFixed(0)} kB | ${f.pageMs[0].toFixed(0)} / ${f.pageMs[1].toFixed(0)} ms | ${f.drawnMs === null ? 'n/a' : `${f.drawnMs.toFixed(0)} ms (${f.drawnRunsMs.map((x) => x.toFixed(0)).join(', ')})`} | ${f.wallMs === null ? 'n/a' : `${f.wallMs.toFixed(0)} ms`} | ${kb(f.answers.mcpAxis)} / ${kb(f.answers.a2aAxis)} / ${kb(f.answers.aguiSnapshot)} | ${kb(largest)} |`;
  });
  const top = r.sizes.find((f) => f.models === 1000);
  const goals = top
    ? [
        `Goal at 1,000 models: the page's HTML at most 1 MB: ${(top.pageBytes / 1e3).toFixed(0)} kB, **${verdict(top.pageBytes <= PAGE_MAX_BYTES)}**; drawn in under 2 s: ${top.drawnMs === null ? 'not measured' : `${top.drawnMs.toFixed(0)} ms, **${verdict(top.drawnMs < PAGE_MAX_MS)}**`}; every agent answer within 64 kB: **${verdict(Math.max(...Object.values(top.answers)) <= ANSWER_MAX_BYTES)}**.`,
      ]
    : [];
  return [
    `One model-comparison axis of N public models and one own model × ${r.sizes[0]?.items ?? '?'} items, with a positive label so the board's row lists every model in per_model (bench/many-models.ts), published, signed and served by the app on 127.0.0.1${r.chromium ? `; headless Chromium ${r.chromium}` : ''}.${r.skipped ? ` ${r.skipped}.` : ''}`,
    '',
    '| models | pairs | publish | /api/models: first read, size | axis page HTML | page read: first / second | drawn (page clock, median of 3; runs) | wall, median | MCP gspc_axis / A2A axis-lookup / AG-UI snapshot | largest answer |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    ...goals,
  ].join('\n');
}
