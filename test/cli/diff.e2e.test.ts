/**
 * `gspc diff` (issue 31) on real releases: the demo, then an edited copy (test/helpers/
 * edited-demo.ts: a leader changed, a bank refused so its cards are withdrawn, a correction
 * added). Each release is verified first; a tampered one is not
 * compared. The demo against itself: nothing changed. Served away from their DID's host while it
 * is down (issue 36), the two releases are UNVERIFIABLE_KEY and not compared, unless the reader
 * anchors the keys with `--trust-did-document` or `--trust-key`, as `gspc verify` takes them.
 *
 * Which way (issue 39): the diff says it reads old → new; with the arguments swapped the second
 * log is shorter and the diff is refused as a rollback (or, with --allow-rollback, given under a
 * warning); a release of the same DID whose log went another way is a fork; a release of another
 * board (another DID) is refused unless --allow-other-board. A data directory is read as its
 * current release by gspc verify and gspc diff.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
/** Another board's data directory, and a second data directory under the same keys and DID. */
const other = tempDir();
const fork = tempDir();

const ids: string[] = [];
/** The demo published by another board (its own keys, another origin: another DID). */
let otherBoard = '';
/** The edited demo published under the same DID and keys by a second data directory: a fork of the log. */
let forked = '';

describe('gspc diff', () => {
  before(async () => {
    const edited = editedDemo();
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    for (const corpus of [demoCorpus, edited]) {
      const r = await gspc(['publish', corpus, '--data-dir', data, '--public-url', 'http://localhost:8770']);
      assert.equal(r.status, 0, r.stderr);
      ids.push(/^published (r-[0-9a-f]{20})/.exec(r.stdout)![1]!);
    }
    assert.equal((await gspc(['keygen', '--data-dir', other])).status, 0);
    const o = await gspc(['publish', demoCorpus, '--data-dir', other, '--public-url', 'http://localhost:8771']);
    assert.equal(o.status, 0, o.stderr);
    otherBoard = join(other, 'releases', /^published (r-[0-9a-f]{20})/.exec(o.stdout)![1]!);
    // The same keys, a history of its own: the edited demo is this log's first release.
    cpSync(join(data, 'keys'), join(fork, 'keys'), { recursive: true });
    const f = await gspc(['publish', edited, '--data-dir', fork, '--public-url', 'http://localhost:8770']);
    assert.equal(f.status, 0, f.stderr);
    forked = join(fork, 'releases', /^published (r-[0-9a-f]{20})/.exec(f.stdout)![1]!);
  });
  const dir = (i: number) => join(data, 'releases', ids[i]!);

  it('names exactly what the edits changed: the governance leader, the care bank refused (its cards withdrawn), the correction added', async () => {
    const r = await gspc(['diff', dir(0), dir(1), '--json']);
    assert.equal(r.status, 0, r.stderr);
    const d = JSON.parse(r.stdout) as Json;
    assert.equal(d.schema, 'svc.release-diff/1');
    // Which way it reads: the first argument to the second, a later release of the same board.
    assert.equal(d.direction.reading, 'from → to');
    assert.equal(d.direction.log, 'extends');
    assert.equal(d.from.release, ids[0]);
    assert.equal(d.from.did, 'did:web:localhost%3A8770');
    assert.equal(d.to.did, d.from.did);
    assert.ok(d.from.log.size < d.to.log.size, 'the second log is the longer');
    assert.match(d.to.log.root, /^[0-9a-f]{64}$/);
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
    assert.match(
      lines[1]!,
      /^reads old → new \(the first argument to the second\): the second log extends the first: \d+ → \d+ entries$/,
    );
    assert.equal(lines[2], 'governance: leader "demo/atlas-70b" → "demo/borealis-34b"');
    assert.ok(
      lines.includes('correction added: C-2026-1120-01: The governance rows of two models were swapped at import.'),
    );
  });

  it('a release against itself: nothing changed', async () => {
    const r = await gspc(['diff', dir(0), dir(0)]);
    const lines = r.stdout.trim().split('\n');
    assert.match(
      lines[1]!,
      /^reads old → new \(the first argument to the second\): the same log: \d+ entries, root [0-9a-f]{16} \(the log does not tell which release is the later\)$/,
    );
    assert.deepEqual(lines.slice(2), ['nothing changed']);
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
    assert.match(
      none.stderr,
      /is neither an http\(s\) base URL, a release directory \(no release\.json\) nor a data directory \(no current release\)/,
    );
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

  it('the arguments swapped: the second log is shorter, refused as a rollback; --allow-rollback compares under a warning', async () => {
    const refused = await gspc(['diff', dir(1), dir(0)]);
    assert.equal(refused.status, 2, refused.stdout);
    assert.equal(refused.stdout, '');
    assert.match(
      refused.stderr,
      /^gspc: gspc diff .* the second log is shorter: this is a rollback, or the arguments are swapped \(the first log has \d+ entries; the second has \d+, which are the first log's first \d+\)\. Nothing is compared; .*--allow-rollback\n$/,
    );
    const words = await gspc(['diff', dir(1), dir(0), '--allow-rollback']);
    assert.equal(words.status, 0, words.stderr);
    assert.match(
      words.stdout.split('\n')[1]!,
      /^WARNING: the second log is shorter: this is a rollback, or the arguments are swapped .*; compared because --allow-rollback was given: /,
    );
    const json = JSON.parse((await gspc(['diff', dir(1), dir(0), '--allow-rollback', '--json'])).stdout) as Json;
    assert.deepEqual([json.direction.log, json.direction.allowed_by], ['rollback', '--allow-rollback']);
    assert.ok(json.from.log.size > json.to.log.size);
  });

  it('the same DID, a log that went another way: a fork, refused; --allow-rollback compares it under a warning', async () => {
    const refused = await gspc(['diff', dir(0), forked]);
    assert.equal(refused.status, 2, refused.stdout);
    assert.match(
      refused.stderr,
      /the two logs differ at entry \d+ .*: a fork of the log, neither release continues the other\. Nothing is compared/,
    );
    const allowed = await gspc(['diff', dir(0), forked, '--allow-rollback', '--json']);
    assert.equal(allowed.status, 0, allowed.stderr);
    assert.equal((JSON.parse(allowed.stdout) as Json).direction.log, 'fork');
  });

  it('two boards (another DID): refused, naming both DIDs; --allow-other-board compares them and says so', async () => {
    const refused = await gspc(['diff', dir(0), otherBoard]);
    assert.equal(refused.status, 2, refused.stdout);
    assert.match(
      refused.stderr,
      /two different boards: the first is did:web:localhost%3A8770, the second did:web:localhost%3A8771; .*Nothing is compared; to compare two boards, pass --allow-other-board/,
    );
    // --allow-rollback is not enough: two boards are asked for by name.
    assert.equal((await gspc(['diff', dir(0), otherBoard, '--allow-rollback'])).status, 2);
    const allowed = await gspc(['diff', dir(0), otherBoard, '--allow-other-board', '--json']);
    assert.equal(allowed.status, 0, allowed.stderr);
    const d = JSON.parse(allowed.stdout) as Json;
    assert.deepEqual(
      [d.direction.log, d.direction.allowed_by, d.to.did],
      ['other_board', '--allow-other-board', 'did:web:localhost%3A8771'],
    );
    const words = await gspc(['diff', dir(0), otherBoard, '--allow-other-board']);
    assert.match(
      words.stdout.split('\n')[1]!,
      /^WARNING: two different boards: .*compared because --allow-other-board was given/,
    );
  });

  it('a data directory: gspc verify and gspc diff read its current release; one with nothing published is refused', async () => {
    const v = await gspc(['verify', data]);
    assert.equal(v.status, 0, v.stdout);
    assert.equal(v.stdout.split('\n')[0], `gspc verify ${dir(1)} (the current release of the data directory ${data})`);
    assert.match(v.stdout.trim().split('\n').at(-1)!, /^VALID: every check passes/);
    const viaData = await gspc(['diff', dir(0), data, '--json']);
    assert.equal(viaData.status, 0, viaData.stderr);
    assert.deepEqual(JSON.parse(viaData.stdout), JSON.parse((await gspc(['diff', dir(0), dir(1), '--json'])).stdout));
    // The data directory first: its current release is the later one, so this is the rollback.
    const swapped = await gspc(['diff', data, dir(0)]);
    assert.equal(swapped.status, 2);
    assert.match(swapped.stderr, /the second log is shorter: this is a rollback, or the arguments are swapped/);
    const empty = tempDir();
    assert.equal((await gspc(['keygen', '--data-dir', empty])).status, 0);
    const none = await gspc(['verify', empty]);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /nor a data directory \(no current release\)/);
    mkdirSync(join(empty, 'releases'));
    const nothing = await gspc(['diff', empty, dir(0)]);
    assert.equal(nothing.status, 2);
    assert.match(
      nothing.stderr,
      /is a data directory with no current release \(nothing published or pulled into it yet\)/,
    );
  });
});
