/**
 * The XRPL assets document `svc.xrpl-assets/0.1` (specification, rail xrpl-reader at `/api/xrpl`;
 * action svc.xrpl.assets.read requires `kind` and `writes_board` false). It reads rippled JSON-RPC
 * answers (`account_info` for the XRP balance, `account_lines` for trust-line balances), either
 * read live from the operator's endpoint or recorded in the corpus, and always says which.
 * Balances stay decimal strings: an XRPL amount is never turned into a float.
 * Pure: the I/O (src/status/xrpl-reader.ts) passes the answers and the time in.
 */
import { isClassicAddress } from './xrpl-address.js';

export const XRPL_ASSETS_SCHEMA = 'svc.xrpl-assets/0.1';
export const XRPL_SNAPSHOT_PATH = 'status/xrpl-snapshot.json';
/** The most trust lines rippled returns per page (its documented maximum). */
export const ACCOUNT_LINES_LIMIT = 400;

export interface XrplAsset {
  currency: string;
  /** The trust line's issuer; absent for XRP, which has none. */
  issuer?: string;
  /** The other account of the trust line; absent for XRP. */
  counterparty?: string;
  /** Decimal string, from the account's side: negative when the account owes (it is the issuer). */
  balance: string;
}

/** What one read (live or recorded) found. */
export interface XrplRead {
  assets: XrplAsset[];
  /** False when rippled said more trust lines remain (a marker) than were read. */
  complete: boolean;
  ledger_index: number | null;
  validated: boolean;
  /** Whether an `account_info` answer (the XRP balance) is part of the read. */
  xrp_included: boolean;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; field: string; reason: string };

// ---- rippled JSON-RPC requests (https://xrpl.org/docs/references/http-websocket-apis) ----

/** The JSON-RPC body that reads the account root (its XRP balance) on the latest validated ledger. */
export function accountInfoRequest(account: string): unknown {
  return { method: 'account_info', params: [{ account, ledger_index: 'validated' }] };
}

/** The first page reads the latest validated ledger; later pages stay on that ledger with its marker. */
export function accountLinesRequest(account: string, ledger: number | 'validated', marker?: unknown): unknown {
  return {
    method: 'account_lines',
    params: [{ account, ledger_index: ledger, limit: ACCOUNT_LINES_LIMIT, ...(marker !== undefined && { marker }) }],
  };
}

// ---- amounts ----

const AMOUNT = /^(-)?(\d{1,40})(?:\.(\d{1,100}))?(?:[eE]([-+]?\d{1,3}))?$/;

/** A rippled amount text (plain or `mantissa e exponent`) as a plain decimal string; null if malformed. */
export function toPlainDecimal(text: string): string | null {
  const m = AMOUNT.exec(text);
  if (!m) return null;
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  if (Math.abs(exp) > 200) return null;
  const digits = `${m[2]}${m[3] ?? ''}`;
  const point = m[2]!.length + exp;
  let int: string;
  let frac: string;
  if (point <= 0) {
    int = '0';
    frac = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    int = digits + '0'.repeat(point - digits.length);
    frac = '';
  } else {
    int = digits.slice(0, point);
    frac = digits.slice(point);
  }
  int = int.replace(/^0+(?=\d)/, '');
  frac = frac.replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return m[1] && body !== '0' ? `-${body}` : body;
}

/** XRP drops (integer string, 1 XRP = 10^6 drops) as a decimal XRP string; null if malformed. */
export function dropsToXrp(drops: string): string | null {
  if (!/^\d{1,20}$/.test(drops)) return null;
  return toPlainDecimal(`${drops}e-6`);
}

// A currency code is three ASCII characters other than "XRP", or 160 bits in hex.
const CURRENCY = /^(?:[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}|[0-9A-F]{40})$/;

// ---- answers ----

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const fail = (field: string, reason: string): { ok: false; field: string; reason: string } => ({
  ok: false,
  field,
  reason,
});

/** The `result` of a successful answer for `account`, or why it is not one. */
function resultOf(body: unknown, account: string): Parsed<Obj> {
  if (!isObj(body) || !isObj(body.result)) return fail('result', 'not a rippled JSON-RPC answer (no result object)');
  const r = body.result;
  if (r.status === 'error' || r.error !== undefined) {
    const msg = typeof r.error_message === 'string' ? `: ${r.error_message.slice(0, 200)}` : '';
    return fail('result.error', `rippled answered error ${String(r.error).slice(0, 60)}${msg}`);
  }
  if (r.status !== 'success') return fail('result.status', 'must be "success"');
  if (r.account !== undefined && r.account !== account)
    return fail('result.account', `answers for ${String(r.account).slice(0, 60)}, not ${account}`);
  return { ok: true, value: r };
}

const ledgerOf = (r: Obj): number | null => {
  const v = r.ledger_index ?? r.ledger_current_index;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
};

/** One `account_lines` answer: its assets, marker and ledger. */
export function parseAccountLines(
  body: unknown,
  account: string,
): Parsed<{ assets: XrplAsset[]; marker: unknown; ledger_index: number | null; validated: boolean }> {
  const res = resultOf(body, account);
  if (!res.ok) return res;
  const r = res.value;
  if (r.account !== account) return fail('result.account', `must be ${account}`);
  if (!Array.isArray(r.lines)) return fail('result.lines', 'must be an array');
  const assets: XrplAsset[] = [];
  for (const [i, line] of r.lines.entries()) {
    const at = `result.lines.${i}`;
    if (!isObj(line)) return fail(at, 'must be an object');
    if (typeof line.account !== 'string' || !isClassicAddress(line.account))
      return fail(`${at}.account`, 'must be a classic XRPL address');
    if (typeof line.currency !== 'string' || !CURRENCY.test(line.currency) || line.currency === 'XRP')
      return fail(`${at}.currency`, 'must be a 3-character code (not XRP) or 40 hex digits');
    const balance = typeof line.balance === 'string' ? toPlainDecimal(line.balance) : null;
    if (balance === null) return fail(`${at}.balance`, 'must be a decimal amount string');
    const owes = balance.startsWith('-');
    assets.push({
      currency: line.currency,
      issuer: owes ? account : line.account,
      counterparty: line.account,
      balance,
    });
  }
  return { ok: true, value: { assets, marker: r.marker, ledger_index: ledgerOf(r), validated: r.validated === true } };
}

/** An `account_info` answer: the XRP balance. */
export function parseAccountInfo(
  body: unknown,
  account: string,
): Parsed<{ xrp: XrplAsset; ledger_index: number | null; validated: boolean }> {
  const res = resultOf(body, account);
  if (!res.ok) return res;
  const data = res.value.account_data;
  if (!isObj(data)) return fail('result.account_data', 'must be an object');
  if (data.Account !== account) return fail('result.account_data.Account', `must be ${account}`);
  const xrp = typeof data.Balance === 'string' ? dropsToXrp(data.Balance) : null;
  if (xrp === null) return fail('result.account_data.Balance', 'must be a string of XRP drops');
  return {
    ok: true,
    value: {
      xrp: { currency: 'XRP', balance: xrp },
      ledger_index: ledgerOf(res.value),
      validated: res.value.validated === true,
    },
  };
}

type LinesPage = Extract<ReturnType<typeof parseAccountLines>, { ok: true }>['value'];
type InfoAnswer = Extract<ReturnType<typeof parseAccountInfo>, { ok: true }>['value'];

/**
 * One read from its parsed answers: the XRP balance first (when `account_info` was read), then
 * every trust line in page order. Complete when the last page carries no marker; validated
 * only when every answer came from a validated ledger.
 */
export function combineRead(info: InfoAnswer | null, pages: readonly LinesPage[]): XrplRead {
  const last = pages.at(-1);
  const all = [...(info ? [info] : []), ...pages];
  return {
    assets: [...(info ? [info.xrp] : []), ...pages.flatMap((p) => p.assets)],
    complete: last !== undefined && last.marker === undefined,
    ledger_index: pages[0]?.ledger_index ?? info?.ledger_index ?? null,
    validated: all.length > 0 && all.every((a) => a.validated),
    xrp_included: info !== null,
  };
}

// ---- the document ----

/** A live read of the configured endpoint: what it found, or why it failed. */
export type XrplLiveOutcome =
  | { ok: true; endpoint_origin: string; account: string; read_at: string; read: XrplRead }
  | { ok: false; endpoint_origin: string; account: string; read_at: string; error: string };

/** The corpus's recorded snapshot, validated at corpus load. */
export interface XrplSnapshotView {
  path: string;
  sha256: string;
  recorded_at: string;
  /** The operator's description of the endpoint the answers were recorded from. */
  endpoint: string;
  account: string;
  note?: string;
  read: XrplRead;
}

export type XrplKind = 'LIVE_READ' | 'RECORDED_SNAPSHOT' | 'UNREAD';

export interface XrplAssetsDocument {
  schema: typeof XRPL_ASSETS_SCHEMA;
  kind: XrplKind;
  writes_board: false;
  observed_at: string;
  account: string | null;
  source: Obj | null;
  live_read:
    | { configured: false }
    | { configured: true; endpoint_origin: string; ok: boolean; read_at: string; error: string | null };
  /** null: nothing was read (never an empty holding). */
  assets: XrplAsset[] | null;
  assets_complete: boolean | null;
  note: string;
  error: string | null;
}

function snapshotSource(s: XrplSnapshotView): Obj {
  return {
    type: 'recorded-snapshot',
    path: s.path,
    sha256: s.sha256,
    recorded_at: s.recorded_at,
    endpoint: s.endpoint,
    ledger_index: s.read.ledger_index,
    validated: s.read.validated,
    ...(s.note !== undefined && { note: s.note }),
  };
}

const xrpNote = (r: XrplRead) => (r.xrp_included ? '' : ' The XRP balance was not recorded (no account_info answer).');

/**
 * The document for one request: LIVE_READ when the configured endpoint answered; otherwise the
 * recorded snapshot (RECORDED_SNAPSHOT, with the live failure named when there was one), but
 * only a snapshot of the same account; otherwise UNREAD with the reason and `assets` null.
 */
export function buildXrplAssets(
  now: Date,
  live: XrplLiveOutcome | null,
  snapshot: XrplSnapshotView | undefined,
): XrplAssetsDocument {
  const head = { schema: XRPL_ASSETS_SCHEMA, observed_at: now.toISOString() } as const;
  const liveRead: XrplAssetsDocument['live_read'] =
    live === null
      ? { configured: false }
      : {
          configured: true,
          endpoint_origin: live.endpoint_origin,
          ok: live.ok,
          read_at: live.read_at,
          error: live.ok ? null : live.error,
        };
  if (live?.ok) {
    const r = live.read;
    return {
      ...head,
      kind: 'LIVE_READ',
      writes_board: false,
      account: live.account,
      source: {
        type: 'configured-endpoint',
        endpoint_origin: live.endpoint_origin,
        methods: ['account_info', 'account_lines'],
        read_at: live.read_at,
        ledger_index: r.ledger_index,
        validated: r.validated,
      },
      live_read: liveRead,
      assets: r.assets,
      assets_complete: r.complete,
      note: `Read live from the configured XRPL endpoint at ${live.read_at}.${r.complete ? '' : ' More trust lines remain than were read.'}`,
      error: null,
    };
  }
  const failure = live && !live.ok ? `live read of ${live.endpoint_origin} failed (${live.error})` : null;
  if (snapshot && (!live || live.account === snapshot.account)) {
    const r = snapshot.read;
    return {
      ...head,
      kind: 'RECORDED_SNAPSHOT',
      writes_board: false,
      account: snapshot.account,
      source: snapshotSource(snapshot),
      live_read: liveRead,
      assets: r.assets,
      assets_complete: r.complete,
      note: `Recorded snapshot of ${snapshot.recorded_at} (${snapshot.path}), not a live read.${xrpNote(r)}${r.complete ? '' : ' More trust lines remained than were recorded.'}`,
      error: failure
        ? `${failure}; serving the recorded snapshot of ${snapshot.recorded_at} instead, not live data`
        : null,
    };
  }
  let error: string;
  if (failure && snapshot)
    error = `${failure}; the recorded snapshot is of another account (${snapshot.account}), so it is not served`;
  else if (failure) error = `${failure}; no recorded snapshot (${XRPL_SNAPSHOT_PATH}) to fall back to`;
  else error = `no XRPL endpoint is configured and the corpus has no recorded snapshot (${XRPL_SNAPSHOT_PATH})`;
  return {
    ...head,
    kind: 'UNREAD',
    writes_board: false,
    account: live?.account ?? null,
    source: null,
    live_read: liveRead,
    assets: null,
    assets_complete: null,
    note: 'Nothing was read: no XRPL asset is reported, which is not the same as holding none.',
    error,
  };
}
