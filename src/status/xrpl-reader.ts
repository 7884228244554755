/**
 * The live XRPL read behind `GET /api/xrpl`: rippled JSON-RPC (`account_info`, then
 * `account_lines` page by page) POSTed to the operator's configured endpoint only (GSPC_XRPL_URL;
 * never a URL from a request), under one AbortController deadline for the whole read, a
 * response size cap and no redirects. Every failure becomes a value naming the reason; the
 * document (src/core/status/xrpl-assets.ts) says the live read failed and what it served instead.
 */
import {
  accountInfoRequest,
  accountLinesRequest,
  combineRead,
  parseAccountInfo,
  parseAccountLines,
  type XrplLiveOutcome,
} from '../core/status/xrpl-assets.js';
import { isClassicAddress } from '../core/status/xrpl-address.js';
import { fetchFailure, readCapped } from './bounded-fetch.js';

export interface XrplEndpoint {
  url: string;
  account: string;
  timeoutMs: number;
}

/** The largest answer read from the endpoint; beyond it the read fails. */
export const XRPL_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Pages of trust lines read at most (400 lines each); beyond, the read says it is incomplete. */
export const XRPL_MAX_PAGES = 5;

class ReadFailure extends Error {}

/** The endpoint's origin: what the document names (a path may carry an operator's API token). */
export function endpointOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid URL';
  }
}

async function call(url: string, body: unknown, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    signal,
    // A redirect would send the read somewhere the operator did not configure.
    redirect: 'error',
  });
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new ReadFailure(`HTTP ${res.status}`);
  }
  const bytes = await readCapped(res, XRPL_MAX_RESPONSE_BYTES);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ReadFailure('the answer is not JSON');
  }
}

function reasonOf(e: unknown, signal: AbortSignal, timeoutMs: number): string {
  // The deadline spans several requests, so an abort is named here whatever was in flight.
  if (signal.aborted) return `timeout after ${timeoutMs} ms`;
  if (e instanceof ReadFailure) return e.message;
  return fetchFailure(e, timeoutMs);
}

/**
 * Reads the account's XRP balance and trust lines from `ep`. `now` stamps `read_at`. Never
 * throws: a refused, slow, oversized, redirected or malformed answer is `{ ok: false, error }`.
 */
export async function readXrplLive(ep: XrplEndpoint, now: () => Date): Promise<XrplLiveOutcome> {
  const base = { endpoint_origin: endpointOrigin(ep.url), account: ep.account };
  const failed = (error: string): XrplLiveOutcome => ({ ok: false, ...base, read_at: now().toISOString(), error });
  let protocol: string;
  try {
    protocol = new URL(ep.url).protocol;
  } catch {
    return failed('the configured URL is not a URL');
  }
  if (protocol !== 'https:' && protocol !== 'http:') return failed('the configured URL is not http(s)');
  if (!isClassicAddress(ep.account)) return failed('the configured account is not a classic XRPL address');

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ep.timeoutMs);
  try {
    const info = parseAccountInfo(await call(ep.url, accountInfoRequest(ep.account), controller.signal), ep.account);
    if (!info.ok) return failed(`account_info: ${info.field}: ${info.reason}`);
    const pages = [];
    let marker: unknown;
    let ledger: number | 'validated' = 'validated';
    for (let i = 0; i < XRPL_MAX_PAGES; i++) {
      const page = parseAccountLines(
        await call(ep.url, accountLinesRequest(ep.account, ledger, marker), controller.signal),
        ep.account,
      );
      if (!page.ok) return failed(`account_lines: ${page.field}: ${page.reason}`);
      pages.push(page.value);
      marker = page.value.marker;
      if (marker === undefined) break;
      // A marker belongs to its ledger: later pages must read the same one.
      if (page.value.ledger_index === null) return failed('account_lines: a page with a marker names no ledger_index');
      ledger = page.value.ledger_index;
    }
    return { ok: true, ...base, read_at: now().toISOString(), read: combineRead(info.value, pages) };
  } catch (e) {
    return failed(reasonOf(e, controller.signal, ep.timeoutMs));
  } finally {
    clearTimeout(timer);
  }
}
