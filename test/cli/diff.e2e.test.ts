/**
 * `gspc diff` (issue 31) on real releases: the demo, then an edited copy (test/helpers/
 * edited-demo.ts: a leader changed, a bank refused so its cards are withdrawn, a correction
 * added). Each release is verified first; a tampered one is not
 * compared. The demo against itself: nothing changed. Served away from their DID's host while it
 * is down (issue 36), the two releases are UNVERIFIABLE_KEY and not compared, unless the reader
 * anchors the keys with `--trust-did-document` or `--trust-key`, as `gspc verify` takes them.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { thumbprintInput } from '../../src/core/verify/key-anchor.js';
import { signingContext } from '../../src/keys/signing.js';
import { loadRelease } from '../../src/release/load.js';
import { ServedState } from '../../src/serve/served-state.js';
import { liveOf } from '../../src/service.js';
import { savedDidDocument } from '../helpers/anchor.js';
import { gspc } from '../helpers/cli.js';
import { runCli } from '../helpers/process.js';
import { ADDED_CORRECTION, editedDemo } from '../helpers/edited-demo.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON output */
type Json = any;

const data = tempDir();

const ids: string[] = [];

describe('gspc diff', () => {
  before(async () => {
    const edited = editedDemo();
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    for (const corpus of [demoCorpus, edited]) {
      const r = await gspc(['publish', corpus, '--data-dir', data, '--public-url', 'http://localhost:8770']);
      assert.equal(r.status, 0, r.stderr);
      ids.push(/^published (r-[0-9a-f]{20})/.exec(r.stdout)![1]!);
    }
  });
  const dir = (i: number) => join(data, 'releases', ids[i]!);

  it('names exactly what the edits changed: the governance leader, the care bank refused (its cards withdrawn), the correction added', async () => {
    const r = await gspc(['diff', dir(0), dir(1), '--json']);
    assert.equal(r.status, 0, r.stderr);
    const d = JSON.parse(r.stdout) as Json;
    assert.equal(d.schema, 'svc.release-diff/1');
    assert.deepEqual(d.axes, {
      added: [],
      removed: [],
      changed: [
        { axis: 'governance', field: 'leader', from: 'demo/atlas-70b', to: 'demo/borealis-34b' },
        { axis: 'care', field: 'leader', from: 'demo/atlas-70b', to: null },
        { axis: 'care', field: 'separation', from: 'TIE', to: 'UNTESTED' },
        { axis: 'care', field: 'accuracy', from: d.axes.changed[3]?.from, to: null },
      ],
    });
    assert.equal(typeof d.axes.changed[3].from, 'number', 'care had an accuracy before');
    assert.deepEqual(
      d.corrections.added.map((c: Json) => c.id),
      [ADDED_CORRECTION],
    );
    assert.ok(d.cards.added.every((c: Json) => c.what.endsWith(' on governance')));
    assert.equal(d.cards.withdrawn.length, 4, 'the four care cards');
    for (const w of d.cards.withdrawn)
      assert.equal(w.reason, 'refused bank: the exact-label menu has fewer than two distinct labels');
    assert.deepEqual(d.cards.removed, [], 'every card gone from the root is named as superseded');
    assert.deepEqual(
      d.cards.superseded.map((c: Json) => c.by).sort(),
      [...d.cards.added, ...d.cards.withdrawn].map((c: Json) => c.sha256).sort(),
      'each old card is superseded by the governance card that replaced it or the care card withdrawn at birth',
    );
    assert.deepEqual(d.key_transitions.added, []);
  });

  it('in words, one change a line; the compiled bin says the same', async () => {
    const r = runCli(['diff', dir(0), dir(1)]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.match(lines[0]!, new RegExp(`^${ids[0]} \\(as of .*\\) → ${ids[1]} \\(as of .*\\)$`));
    assert.equal(lines[1], 'governance: leader "demo/atlas-70b" → "demo/borealis-34b"');
    assert.ok(
      lines.includes('correction added: C-2026-1120-01: The governance rows of two models were swapped at import.'),
    );
  });

  it('a release against itself: nothing changed', async () => {
    const r = await gspc(['diff', dir(0), dir(0)]);
    assert.deepEqual(r.stdout.trim().split('\n').slice(1), ['nothing changed']);
  });

  it('a release that fails gspc verify is not compared; a path that is no release is refused', async () => {
    const copy = join(tempDir(), ids[1]!);
    cpSync(dir(1), copy, { recursive: true });
    const bundle = join(copy, 'evidence', 'cards-bundle.json');
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('"accuracy": 0.', '"accuracy": 1.'));
    const r = await gspc(['diff', dir(0), copy]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /fails gspc verify \(.*\): it is not compared/);
    const none = await gspc(['diff', dir(0), tempDir()]);
    assert.match(none.stderr, /is neither an http\(s\) base URL nor a release directory/);
  });

  it('served away from their DID’s host while it is down: UNVERIFIABLE_KEY, not compared; with --trust-did-document or --trust-key, the same diff as the directories', async () => {
    // Each release served as a replica would serve it, on 127.0.0.1; their DID's host is
    // localhost:8770, where nothing answers with their DID document.
    const served: string[] = [];
    for (const i of [0, 1]) {
      const state = new ServedState(loadRelease(dir(i)), liveOf(signingContext(join(data, 'keys'), 'localhost:8770')));
      const app = buildApp({ state, logLevel: 'silent', baseUrl: 'http://localhost:8770', keysAtDidHost: true });
      after(() => app.close());
      await app.listen({ host: '127.0.0.1', port: 0 });
      served.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    }
    const [a, b] = served as [string, string];
    const refused = await gspc(['diff', a, b]);
    assert.equal(refused.status, 2, refused.stdout);
    assert.match(
      refused.stderr,
      new RegExp(
        `^gspc: ${a} is UNVERIFIABLE_KEY to gspc verify \\(key_anchor: UNVERIFIABLE_KEY: the keys could not be anchored: .*--trust-did-document.*\\): it is not compared`,
      ),
    );
    assert.equal(refused.stdout, '');

    // A service names a release by its root, a directory by its id: the rest is the same.
    const changes = (stdout: string) => {
      const d = JSON.parse(stdout) as Json;
      return { ...d, from: d.from.as_of, to: d.to.as_of };
    };
    const expected = changes((await gspc(['diff', dir(0), dir(1), '--json'])).stdout);
    // The DID document the reader saved while the origin was up (the same bytes the replicas serve).
    const did = (await (await fetch(`${a}/.well-known/did.json`)).json()) as Json;
    const saved = savedDidDocument(did);
    const anchored = await gspc(['diff', a, b, '--json', '--trust-did-document', saved]);
    assert.equal(anchored.status, 0, anchored.stderr);
    assert.deepEqual(changes(anchored.stdout), expected);
    // A release directory and a URL, anchored alike.
    assert.equal((await gspc(['diff', dir(0), b, '--trust-did-document', saved])).status, 0);

    const thumbprints = (did.verificationMethod as Json[])
      .filter((m) => !m.id.endsWith('#identity-root'))
      .flatMap((m) => [
        '--trust-key',
        createHash('sha256').update(thumbprintInput(m.publicKeyJwk.x)).digest('base64url'),
      ]);
    const byKey = await gspc(['diff', a, b, '--json', ...thumbprints]);
    assert.equal(byKey.status, 0, byKey.stderr);
    assert.deepEqual(changes(byKey.stdout), expected);

    // A file that is no DID document is refused before anything is fetched.
    const bad = await gspc(['diff', a, b, '--trust-did-document', join(data, 'nothing.json')]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--trust-did-document .*nothing\.json: ENOENT/);
  });
});
