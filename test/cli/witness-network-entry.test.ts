/**
 * `gspc witness --network-entry <url> --qpd <n> --contact <text>` (WN2): the public witness
 * network's log-list entry (logs/v0, transparency-dev/witness-network log-list-format.md) for the
 * log a service serves, its vkey the served /log/vkey and the served checkpoint verified under it.
 * The lines are checked by the list format's own rules (as its cmd/validate reads them); a
 * checkpoint another key signed, a qpd outside [1, 2^31) and a contact with a line break are refused.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { networkEntry } from '../../src/cli/witness-network-entry.js';
import { logOrigin } from '../../src/core/evidence/card-log.js';
import { GspcError } from '../../src/core/errors.js';
import { signNote } from '../../src/core/evidence/note/signed-note.js';
import { parseVerifierKey } from '../../src/core/evidence/note/verifier-key.js';
import { loadRelease } from '../../src/release/load.js';
import { publishRelease } from '../../src/release/publish.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveSigning, testSigning } from '../helpers/app.js';
import { gspc } from '../helpers/cli.js';
import { freePort } from '../helpers/process.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';

const port = await freePort();
const url = `http://localhost:${port}`;
const signing = testSigning(undefined, `localhost:${port}`);
const release = loadRelease(publishRelease(demoCopy(), tempDir(), signing.inputs).dir);
const app = buildApp({ state: new ServedState(release, liveSigning(signing)), logLevel: 'silent', baseUrl: url });
after(() => app.close());
await app.listen({ host: '127.0.0.1', port });
const servedVkey = (await (await fetch(`${url}/log/vkey`)).text()).trim();

/** The rules of log-list-format.md for one list: header, then vkey, [origin], qpd, contact per log. */
function listErrors(text: string): string[] {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const errors: string[] = [];
  if (lines[0] !== 'logs/v0') errors.push('no logs/v0 header');
  const [vkey, qpd, contact, ...rest] = lines.slice(1);
  const vk = parseVerifierKey(vkey?.replace(/^vkey /, '') ?? '');
  if (!vkey?.startsWith('vkey ') || vkey.split(' ').length !== 2 || !vk.ok) errors.push(`bad vkey line ${vkey}`);
  const q = /^qpd ([1-9][0-9]*)$/.exec(qpd ?? '');
  if (!q || Number(q[1]) >= 2 ** 31) errors.push(`bad qpd line ${qpd}`);
  if (!/^contact \S/.test(contact ?? '')) errors.push(`bad contact line ${contact}`);
  if (rest.length > 0) errors.push(`more lines: ${rest.join(' | ')}`);
  return errors;
}

async function refused(p: Promise<unknown>, code: string, why: RegExp) {
  await assert.rejects(p, (e: unknown) => e instanceof GspcError && e.code === code && why.test(e.message));
}

describe('gspc witness --network-entry', () => {
  it('prints a logs/v0 entry with the served vkey, the operator qpd and contact, valid by the list format', async () => {
    const text = await networkEntry(url, { qpd: '48', contact: 'ops@example.org' });
    assert.deepEqual(listErrors(text), [], text);
    assert.ok(text.includes(`\nvkey ${servedVkey}\nqpd 48\ncontact ops@example.org`), text);
    // No origin line: the vkey's name is the origin, the DID's host + /log.
    assert.equal(/^origin /m.test(text), false);
    const vk = parseVerifierKey(servedVkey);
    assert.ok(vk.ok);
    assert.equal(vk.key.name, logOrigin(signing.did));
    assert.equal(vk.key.name, `localhost:${port}/log`);
    assert.match(
      text,
      new RegExp(
        `^# The card log localhost:${port}/log: checkpoint of size ${release.evidence.log.entries.length} verified`,
      ),
    );
  });

  it('runs as a command, and refuses to mix with recording witness evidence', async () => {
    const r = await gspc(['witness', '--network-entry', url, '--qpd', '24', '--contact', 'https://example.org/about']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(listErrors(r.stdout), [], r.stdout);
    const mixed = await gspc([
      'witness',
      '--network-entry',
      url,
      '--kind',
      'transparency-log',
      '--qpd',
      '1',
      '--contact',
      'x',
    ]);
    assert.equal(mixed.status, 2);
    assert.match(mixed.stderr, /--network-entry takes --qpd and --contact only/);
    const noQpd = await gspc(['witness', '--network-entry', url, '--contact', 'x']);
    assert.equal(noQpd.status, 2);
    assert.match(noQpd.stderr, /needs --qpd <n> and --contact <text>/);
  });

  it('refuses a qpd outside [1, 2^31), a contact over two lines, a URL that is not http(s)', async () => {
    for (const qpd of ['0', '012', '2147483648', '1.5', '-3', ''])
      await refused(networkEntry(url, { qpd, contact: 'x' }), 'config_invalid', /--qpd/);
    assert.match(await networkEntry(url, { qpd: '2147483647', contact: 'x' }), /\nqpd 2147483647\n/);
    await refused(networkEntry(url, { qpd: '1', contact: 'a\nvkey evil' }), 'config_invalid', /--contact/);
    await refused(networkEntry(url, { qpd: '1', contact: '  ' }), 'config_invalid', /--contact/);
    await refused(networkEntry('file:///etc', { qpd: '1', contact: 'x' }), 'config_invalid', /http\(s\) URL/);
  });

  it('refuses a vkey the served checkpoint does not verify under (another key under the origin name)', async () => {
    const origin = `localhost:${port}/log`;
    const impostor = { name: origin, privateKey: new Uint8Array(32).fill(9) };
    const real = await (await fetch(`${url}/log/checkpoint`)).text();
    const forged = signNote(real.slice(0, real.indexOf('\n\n') + 1), impostor);
    const other = createServer((req, res) => {
      if (req.url === '/log/vkey') return res.end(`${servedVkey}\n`);
      if (req.url === '/log/checkpoint') return res.end(forged);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    after(() => other.close());
    const at = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    await refused(networkEntry(at, { qpd: '1', contact: 'x' }), 'release_invalid', /does not verify under/);
    // The same checkpoint text signed with the real key is accepted there, with a note that the
    // origin is not that server's prefix.
    const faithful = createServer((req, res) => {
      if (req.url === '/log/vkey') return res.end(`${servedVkey}\n`);
      if (req.url === '/log/checkpoint') return res.end(real);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => faithful.listen(0, '127.0.0.1', r));
    after(() => faithful.close());
    const mirror = `http://127.0.0.1:${(faithful.address() as AddressInfo).port}`;
    assert.match(await networkEntry(mirror, { qpd: '1', contact: 'x' }), /# Its origin is not 127\.0\.0\.1:\d+\/log/);
  });
});
