/** The status documents' configuration: sources are validated at start, never taken from a request. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readConfig } from '../../src/config.js';
import { GspcError } from '../../src/core/errors.js';

const invalid = (env: NodeJS.ProcessEnv, pattern: RegExp) =>
  assert.throws(
    () => readConfig(env),
    (e: unknown) => e instanceof GspcError && e.code === 'config_invalid' && pattern.test(e.message),
  );

describe('status sources in the configuration', () => {
  it('defaults: no peers, no XRPL endpoint, no canary adapter, fabric refreshed every 60 s', () => {
    const c = readConfig({});
    assert.deepEqual(c.sources, { hubPeers: [], xrpl: null, providerCanaryFile: null });
    assert.equal(c.fabricRefreshMs, 60_000);
  });

  it('reads GSPC_HUB_PEERS as name=origin pairs (paths dropped: only fixed paths are read)', () => {
    const c = readConfig({ GSPC_HUB_PEERS: 'lab-a=https://a.example/some/path, lab-b=http://b.example:8080' });
    assert.deepEqual(c.sources.hubPeers, [
      { name: 'lab-a', url: 'https://a.example' },
      { name: 'lab-b', url: 'http://b.example:8080' },
    ]);
  });

  it('refuses a peer without a name, named self, twice, or not http(s)', () => {
    invalid({ GSPC_HUB_PEERS: 'https://a.example' }, /GSPC_HUB_PEERS/);
    invalid({ GSPC_HUB_PEERS: 'self=https://a.example' }, /GSPC_HUB_PEERS/);
    invalid({ GSPC_HUB_PEERS: 'a=https://a.example,a=https://b.example' }, /unique/);
    invalid({ GSPC_HUB_PEERS: 'a=file:///etc/passwd' }, /http or https/);
  });

  it('an XRPL endpoint needs an account with a valid checksum', () => {
    invalid({ GSPC_XRPL_URL: 'https://xrpl.example' }, /GSPC_XRPL_ACCOUNT/);
    invalid(
      { GSPC_XRPL_URL: 'https://xrpl.example', GSPC_XRPL_ACCOUNT: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTX' },
      /GSPC_XRPL_ACCOUNT/,
    );
    const c = readConfig({
      GSPC_XRPL_URL: 'https://xrpl.example',
      GSPC_XRPL_ACCOUNT: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
    });
    assert.deepEqual(c.sources.xrpl, {
      url: 'https://xrpl.example',
      account: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
      timeoutMs: 3500,
    });
  });

  it('the fabric refresh period is bounded', () => {
    invalid({ GSPC_FABRIC_REFRESH_SECONDS: '1' }, /GSPC_FABRIC_REFRESH_SECONDS/);
    assert.equal(readConfig({ GSPC_FABRIC_REFRESH_SECONDS: '300' }).fabricRefreshMs, 300_000);
  });
});
