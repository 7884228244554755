/**
 * GET /api/xrpl (rail xrpl-reader; action svc.xrpl.assets.read needs `kind` and `writes_board`
 * false): a live read from a real local HTTP server that answers like rippled, one that answers
 * 500, one that never answers, the recorded snapshot, and neither; each document says which.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { xrpl_snapshotFiles } from '../../demo/status/xrpl-snapshot.js';
import type { CorpusProblem } from '../../src/core/errors.js';
import { encodeClassicAddress, isClassicAddress } from '../../src/core/status/xrpl-address.js';
import { dropsToXrp, toPlainDecimal } from '../../src/core/status/xrpl-assets.js';
import { readCorpus } from '../../src/corpus/read-corpus.js';
import { buildApp } from '../../src/app.js';
import { NO_SOURCES } from '../../src/serve/context.js';
import type { ServedState } from '../../src/serve/served-state.js';
import { demoApp } from '../helpers/app.js';
import { demoCopy } from '../helpers/tmp.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const SNAPSHOT = 'status/xrpl-snapshot.json';
const addr = (n: number) => encodeClassicAddress(new Uint8Array(20).fill(n));
const ACCOUNT = addr(1);
const USD_ISSUER = addr(2);
const EUR_ISSUER = addr(3);
const HEX_CURRENCY = '0158415500000000C1F76FF6ECB0BAC600000000';
const SNAPSHOT_ACCOUNT = JSON.parse(xrpl_snapshotFiles()[0]![1]).account as string;

function corpus(snapshot: string | null): string {
  const dir = demoCopy();
  rmSync(join(dir, SNAPSHOT), { force: true });
  if (snapshot !== null) {
    mkdirSync(join(dir, 'status'), { recursive: true });
    writeFileSync(join(dir, SNAPSHOT), snapshot);
  }
  return dir;
}
const demoSnapshot = () => xrpl_snapshotFiles()[0]![1];

type Handler = (
  body: { method: string; params: Record<string, unknown>[] },
  req: IncomingMessage,
  res: ServerResponse,
) => void;

/** A real HTTP server on 127.0.0.1; `seen` records every JSON-RPC request it received. */
async function server(
  handle: Handler,
): Promise<{ url: string; seen: { method: string; params: Record<string, unknown>[] }[] }> {
  const seen: { method: string; params: Record<string, unknown>[] }[] = [];
  const s: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => {
      text += c;
    });
    req.on('end', () => {
      const body = JSON.parse(text);
      seen.push(body);
      handle(body, req, res);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  after(() => {
    s.closeAllConnections();
    s.close();
  });
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/`, seen };
}

const send = (res: ServerResponse, v: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(v));
};

/** Answers like rippled: account_info, and account_lines in two pages joined by a marker. */
const rippled: Handler = (body, _req, res) => {
  const p = body.params[0]!;
  if (body.method === 'account_info') {
    return send(res, {
      result: {
        account_data: { Account: p.account, Balance: '12345678', LedgerEntryType: 'AccountRoot' },
        ledger_index: 100,
        validated: true,
        status: 'success',
      },
    });
  }
  const line = (account: string, currency: string, balance: string) => ({
    account,
    balance,
    currency,
    limit: '0',
    limit_peer: '0',
    quality_in: 0,
    quality_out: 0,
  });
  if (p.marker === undefined) {
    return send(res, {
      result: {
        account: p.account,
        ledger_index: 100,
        validated: true,
        limit: 400,
        marker: 'PAGE2',
        status: 'success',
        lines: [line(USD_ISSUER, 'USD', '125.5')],
      },
    });
  }
  send(res, {
    result: {
      account: p.account,
      ledger_index: 100,
      validated: true,
      limit: 400,
      status: 'success',
      lines: [line(EUR_ISSUER, 'EUR', '0.1'), line(USD_ISSUER, HEX_CURRENCY, '1234567890123456e5')],
    },
  });
};

function appFor(state: ServedState, xrpl: { url: string; account: string; timeoutMs: number } | null) {
  const app = buildApp({ state, logLevel: 'silent', now: () => NOW, sources: { ...NO_SOURCES, xrpl } });
  after(() => app.close());
  return app;
}

async function get(app: ReturnType<typeof appFor>) {
  const res = await app.inject({ method: 'GET', url: '/api/xrpl' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.headers['access-control-allow-origin'], '*');
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  const doc = res.json();
  assert.equal(doc.schema, 'svc.xrpl-assets/0.1');
  assert.equal(doc.writes_board, false);
  assert.equal(doc.observed_at, NOW.toISOString());
  for (const a of doc.assets ?? []) assert.equal(typeof a.balance, 'string');
  return doc;
}

describe('GET /api/xrpl', () => {
  const withSnapshot = demoApp(corpus(demoSnapshot())).state;
  const without = demoApp(corpus(null)).state;

  it('live: reads the configured endpoint (account_info, then account_lines page by page) and says LIVE_READ', async () => {
    const s = await server(rippled);
    const doc = await get(appFor(withSnapshot, { url: s.url, account: ACCOUNT, timeoutMs: 2000 }));
    assert.equal(doc.kind, 'LIVE_READ');
    assert.equal(doc.account, ACCOUNT);
    assert.equal(doc.error, null);
    assert.deepEqual(doc.source, {
      type: 'configured-endpoint',
      endpoint_origin: s.url.slice(0, -1),
      methods: ['account_info', 'account_lines'],
      read_at: NOW.toISOString(),
      ledger_index: 100,
      validated: true,
    });
    assert.deepEqual(doc.live_read, {
      configured: true,
      endpoint_origin: s.url.slice(0, -1),
      ok: true,
      read_at: NOW.toISOString(),
      error: null,
    });
    assert.deepEqual(doc.assets, [
      { currency: 'XRP', balance: '12.345678' },
      { currency: 'USD', issuer: USD_ISSUER, counterparty: USD_ISSUER, balance: '125.5' },
      { currency: 'EUR', issuer: EUR_ISSUER, counterparty: EUR_ISSUER, balance: '0.1' },
      { currency: HEX_CURRENCY, issuer: USD_ISSUER, counterparty: USD_ISSUER, balance: '123456789012345600000' },
    ]);
    assert.equal(doc.assets_complete, true);
    assert.deepEqual(
      s.seen.map((b) => b.method),
      ['account_info', 'account_lines', 'account_lines'],
    );
    assert.deepEqual(s.seen[0]!.params[0], { account: ACCOUNT, ledger_index: 'validated' });
    assert.deepEqual(s.seen[1]!.params[0], { account: ACCOUNT, ledger_index: 'validated', limit: 400 });
    assert.deepEqual(s.seen[2]!.params[0], { account: ACCOUNT, ledger_index: 100, limit: 400, marker: 'PAGE2' });
  });

  it('reuses one live read for requests close together', async () => {
    const s = await server(rippled);
    const app = appFor(without, { url: s.url, account: ACCOUNT, timeoutMs: 2000 });
    const [a, b] = await Promise.all([get(app), get(app)]);
    await get(app);
    assert.equal(a.kind, 'LIVE_READ');
    assert.deepEqual(a.assets, b.assets);
    assert.equal(s.seen.length, 3, 'one read: account_info and two account_lines pages');
  });

  it('500: the live read failed; without a snapshot UNREAD with assets null', async () => {
    const s = await server((_b, _q, res) => {
      res.writeHead(500);
      res.end('internal');
    });
    const doc = await get(appFor(without, { url: s.url, account: ACCOUNT, timeoutMs: 2000 }));
    assert.equal(doc.kind, 'UNREAD');
    assert.equal(doc.assets, null);
    assert.equal(doc.source, null);
    assert.equal(doc.account, ACCOUNT);
    assert.match(doc.error, /live read of http:\/\/127\.0\.0\.1:\d+ failed \(HTTP 500\); no recorded snapshot/);
    assert.equal(doc.live_read.ok, false);
    assert.equal(doc.live_read.error, 'HTTP 500');
  });

  it('500 with a snapshot of the same account: RECORDED_SNAPSHOT, saying the live read failed', async () => {
    const s = await server((_b, _q, res) => {
      res.writeHead(500);
      res.end();
    });
    const doc = await get(appFor(withSnapshot, { url: s.url, account: SNAPSHOT_ACCOUNT, timeoutMs: 2000 }));
    assert.equal(doc.kind, 'RECORDED_SNAPSHOT');
    assert.equal(doc.source.type, 'recorded-snapshot');
    assert.match(
      doc.error,
      /failed \(HTTP 500\); serving the recorded snapshot of 2026-01-15T12:00:00Z instead, not live data/,
    );
    assert.equal(doc.live_read.ok, false);
    assert.match(doc.note, /not a live read/);
  });

  it('a snapshot of another account is not served in place of a failed live read', async () => {
    const s = await server((_b, _q, res) => {
      res.writeHead(500);
      res.end();
    });
    const doc = await get(appFor(withSnapshot, { url: s.url, account: ACCOUNT, timeoutMs: 2000 }));
    assert.equal(doc.kind, 'UNREAD');
    assert.equal(doc.assets, null);
    assert.match(doc.error, /snapshot is of another account/);
  });

  it('timeout: an endpoint that never answers fails within the deadline', async () => {
    const s = await server(() => {
      /* never answers */
    });
    const started = Date.now();
    const doc = await get(appFor(without, { url: s.url, account: ACCOUNT, timeoutMs: 300 }));
    assert.ok(Date.now() - started < 3000, 'the request does not hang');
    assert.equal(doc.kind, 'UNREAD');
    assert.equal(doc.live_read.error, 'timeout after 300 ms');
  });

  it('a rippled error, an oversized answer and a redirect are failed reads with their reason', async () => {
    const cases: [Handler, RegExp][] = [
      [
        (_b, _q, res) =>
          send(res, {
            result: { error: 'actNotFound', error_code: 19, error_message: 'Account not found.', status: 'error' },
          }),
        /account_info: result\.error: rippled answered error actNotFound: Account not found\./,
      ],
      [
        (_b, _q, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('"');
          res.write('x'.repeat(1024 * 1024 + 10));
          res.end('"');
        },
        /body larger than 1048576 bytes/,
      ],
      [
        (_b, _q, res) => {
          res.writeHead(307, { location: 'http://127.0.0.1:1/elsewhere' });
          res.end();
        },
        /unexpected redirect/,
      ],
      [
        (_b, _q, res) => send(res, { result: { account_data: { Account: addr(9), Balance: '1' }, status: 'success' } }),
        /Account: must be/,
      ],
    ];
    for (const [handler, reason] of cases) {
      const s = await server(handler);
      const doc = await get(appFor(without, { url: s.url, account: ACCOUNT, timeoutMs: 2000 }));
      assert.equal(doc.kind, 'UNREAD');
      assert.match(doc.live_read.error, reason);
    }
  });

  it('snapshot only: RECORDED_SNAPSHOT with its path, sha256 and recorded_at', async () => {
    const doc = await get(appFor(withSnapshot, null));
    assert.equal(doc.kind, 'RECORDED_SNAPSHOT');
    assert.equal(doc.error, null);
    assert.deepEqual(doc.live_read, { configured: false });
    assert.equal(doc.account, SNAPSHOT_ACCOUNT);
    assert.equal(doc.source.path, SNAPSHOT);
    assert.equal(doc.source.sha256, createHash('sha256').update(demoSnapshot()).digest('hex'));
    assert.equal(doc.source.recorded_at, '2026-01-15T12:00:00Z');
    assert.match(doc.source.endpoint, /SYNTHETIC/);
    assert.deepEqual(
      doc.assets.map((a: { currency: string; balance: string }) => [a.currency, a.balance]),
      [
        ['XRP', '25'],
        ['USD', '125.5'],
        ['EUR', '0.000001'],
        ['53594E5448455449430000000000000000000000', '-1000'],
      ],
    );
    // A negative balance: the peer holds the account's own IOUs, so the account is the issuer.
    assert.equal(doc.assets[3].issuer, SNAPSHOT_ACCOUNT);
    assert.equal(doc.assets_complete, true);
  });

  it('neither: UNREAD, nothing read, said so', async () => {
    const doc = await get(appFor(without, null));
    assert.equal(doc.kind, 'UNREAD');
    assert.equal(doc.account, null);
    assert.equal(doc.assets, null);
    assert.equal(doc.source, null);
    assert.match(doc.error, /no XRPL endpoint is configured and the corpus has no recorded snapshot/);
  });

  it('takes no query parameters (never a URL from a request)', async () => {
    const res = await appFor(without, null).inject({ method: 'GET', url: '/api/xrpl?url=http://127.0.0.1:1/' });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'bad_query');
  });
});

describe('status/xrpl-snapshot.json at corpus load', () => {
  const problemsOf = (text: string): CorpusProblem[] => {
    try {
      readCorpus(corpus(text));
    } catch (e) {
      return (e as { details: { problems: CorpusProblem[] } }).details.problems;
    }
    assert.fail('the corpus was accepted');
  };
  const edited = (edit: (v: Record<string, any>) => void) => {
    const v = JSON.parse(demoSnapshot());
    edit(v);
    return `${JSON.stringify(v, null, 2)}\n`;
  };

  it('refuses a float balance, an answer for another account and a bad checksum, at their line', () => {
    const float = problemsOf(
      edited((v) => {
        v.account_lines.result.lines[0].balance = 125.5;
      }),
    );
    assert.equal(float[0]!.field, 'account_lines.result.lines.0.balance');
    assert.equal(typeof float[0]!.line, 'number');
    const other = problemsOf(
      edited((v) => {
        v.account_info.result.account_data.Account = addr(7);
      }),
    );
    assert.equal(other[0]!.field, 'account_info.result.account_data.Account');
    const checksum = problemsOf(
      edited((v) => {
        v.account = `${v.account.slice(0, -1)}${v.account.endsWith('a') ? 'b' : 'a'}`;
      }),
    );
    assert.equal(checksum[0]!.field, 'account');
    const extra = problemsOf(
      edited((v) => {
        v.assets = [];
      }),
    );
    assert.ok(extra.some((p) => /assets/.test(p.reason + p.field)));
  });

  it('reads the demo snapshot as valid, bytes kept', () => {
    const dir = corpus(demoSnapshot());
    const c = readCorpus(dir);
    assert.equal(
      c.status.xrplSnapshot?.sha256,
      createHash('sha256')
        .update(readFileSync(join(dir, SNAPSHOT)))
        .digest('hex'),
    );
  });
});

describe('XRPL amounts and addresses', () => {
  it('keeps amounts as decimal strings, expanding rippled exponents', () => {
    assert.equal(toPlainDecimal('125.5'), '125.5');
    assert.equal(toPlainDecimal('1234567890123456e5'), '123456789012345600000');
    assert.equal(toPlainDecimal('-1234567890123456e-30'), '-0.000000000000001234567890123456');
    assert.equal(toPlainDecimal('0.10'), '0.1');
    assert.equal(toPlainDecimal('-0'), '0');
    assert.equal(toPlainDecimal('1.5.2'), null);
    assert.equal(toPlainDecimal('NaN'), null);
    assert.equal(dropsToXrp('1'), '0.000001');
    assert.equal(dropsToXrp('100000000000000000'), '100000000000');
    assert.equal(dropsToXrp('-5'), null);
  });

  it('checks classic addresses by their checksum', () => {
    assert.ok(isClassicAddress('rrrrrrrrrrrrrrrrrrrrrhoLvTp'));
    assert.ok(isClassicAddress(ACCOUNT));
    assert.ok(!isClassicAddress(`${ACCOUNT.slice(0, -1)}${ACCOUNT.endsWith('a') ? 'b' : 'a'}`));
    assert.ok(!isClassicAddress('0x1234'));
  });
});
