/**
 * `/metrics` and a request without Host (issue 38, finding 8): `/metrics` was public, never
 * limited, and showed the Node.js version; a request without a Host header got node's empty 400.
 * Now `/metrics` shows no version unless asked, can be restricted to a bearer token or a list of
 * addresses, and reports the ledger's bytes on disk; a request without Host gets the JSON error
 * shape of docs/errors.md.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { ServiceMetrics } from '../../src/web/metrics.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';

const TOKEN = 'a-long-scrape-token-0123456789';

describe('/metrics and a request without Host (issue 38)', () => {
  const { state } = demoApp();

  it('shows no runtime version unless asked (GSPC_METRICS_VERSIONS=1)', async () => {
    const quiet = buildApp({ state, logLevel: 'silent', metrics: new ServiceMetrics(state) });
    const loud = buildApp({ state, logLevel: 'silent', metrics: new ServiceMetrics(state, { versions: true }) });
    after(() => Promise.all([quiet.close(), loud.close()]));
    const text = (await quiet.inject({ url: '/metrics' })).body;
    assert.doesNotMatch(text, /version="v?\d/, 'no version label');
    assert.match((await loud.inject({ url: '/metrics' })).body, /gspc_nodejs_version_info\{version="v\d/);
    assert.equal(readConfig({}).metricsAccess.versions, false);
  });

  it('is restricted by a bearer token or an address list when one is configured', async () => {
    const app = buildApp({
      state,
      logLevel: 'silent',
      metrics: new ServiceMetrics(state, { token: TOKEN, allow: ['10.9.9.9'] }),
    });
    after(() => app.close());
    const anyone = await app.inject({ url: '/metrics', remoteAddress: '10.0.0.5' });
    assert.equal(anyone.statusCode, 403);
    assert.equal((JSON.parse(anyone.body) as { code: string }).code, 'forbidden_origin');
    const wrong = await app.inject({
      url: '/metrics',
      remoteAddress: '10.0.0.5',
      headers: { authorization: 'Bearer x' },
    });
    assert.equal(wrong.statusCode, 403);
    const withToken = await app.inject({
      url: '/metrics',
      remoteAddress: '10.0.0.5',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    assert.equal(withToken.statusCode, 200);
    assert.equal((await app.inject({ url: '/metrics', remoteAddress: '10.9.9.9' })).statusCode, 200);
    const c = readConfig({ GSPC_METRICS_TOKEN: TOKEN, GSPC_METRICS_ALLOW: '10.9.9.9, ::1' }).metricsAccess;
    assert.deepEqual(c, { token: TOKEN, allow: ['10.9.9.9', '::1'], versions: false });
  });

  it("reports the ledger's bytes on disk (gspc_ledger_bytes), for an alert on its growth", async () => {
    const dir = tempDir();
    const db = join(dir, 'ledger.sqlite');
    writeFileSync(db, Buffer.alloc(4096));
    writeFileSync(`${db}-wal`, Buffer.alloc(1000));
    const app = buildApp({
      state,
      logLevel: 'silent',
      metrics: new ServiceMetrics(state, { ledgerFiles: [db, `${db}-wal`] }),
    });
    after(() => app.close());
    assert.match((await app.inject({ url: '/metrics' })).body, /^gspc_ledger_bytes 5096$/m);
  });

  it('a request without Host gets the JSON error shape, not an empty 400', async () => {
    const app = buildApp({ state, logLevel: 'silent' });
    after(() => app.close());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const s = connect({ host: '127.0.0.1', port }, () =>
        s.write('GET /api/gspc HTTP/1.1\r\nConnection: close\r\n\r\n'),
      );
      let out = '';
      s.on('data', (d) => {
        out += d;
      });
      s.on('end', () => resolve(out));
      s.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 400 /);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { error: string; code: string };
    assert.equal(body.code, 'bad_request');
    assert.match(body.error, /Host/);
  });
});
