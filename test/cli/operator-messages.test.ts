/**
 * What a new operator found wrong in what gspc says (issue 39, item 6), each as the operator
 * meets it: `keys rotate cards` explains itself in one readable sentence; `keys revoke --help`
 * names every key it accepts; `keygen` after a publish points to what works, not to a `--force`
 * that is then refused; `export static --help` names `site/`; and `keys revoke` of the board key
 * tells the operator to give witnesses the new `/log/vkey`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ALL_KEYS } from '../../src/core/evidence/signer.js';
import { gspc } from '../helpers/cli.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

const ORIGIN = 'http://localhost:8911';

describe('what gspc says to an operator is true and readable', () => {
  const data = tempDir();
  before(async () => {
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
  });

  it('keygen before the first publish: all keys exist, and --force replaces them (it does)', async () => {
    const again = await gspc(['keygen', '--data-dir', data]);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(
      again.stdout.trim(),
      `all keys already exist in ${join(data, 'keys')} (gspc keygen --force replaces them, until the first publish)`,
    );
  });

  it('keys rotate cards: one sentence naming the role, the key of each kind of card and its command', async () => {
    const r = await gspc(['keys', 'rotate', 'cards', '--data-dir', data]);
    assert.equal(r.status, 2);
    assert.equal(
      r.stderr,
      "gspc: 'cards' is not a key role: measurement cards are signed by the board key (#board-attestation-1, which also signs the root and the log): rotate it with gspc keys rotate board; agent cards are signed by the agent-card key (#card-attestation-2): rotate it with gspc keys rotate agent-card (decision K1); nothing was written\n",
    );
  });

  it('keys revoke --help names every key revoke accepts, card-attestation-1 included', async () => {
    const r = await gspc(['keys', 'revoke', '--help']);
    assert.equal(r.status, 0);
    // The help wraps: the argument's text is all of the Arguments section.
    const kid = /Arguments:([\s\S]*?)Options:/.exec(r.stdout)?.[1]?.replace(/\s+/g, ' ');
    assert.ok(kid !== undefined, r.stdout);
    for (const k of ALL_KEYS) assert.ok(kid.includes(k), `${k} missing from: ${kid}`);
    assert.match(kid, /a retired key as <fragment>~<n>/);
  });

  it('export static --help says it writes site/ (and site-objects.json) besides files/', async () => {
    const r = await gspc(['export', 'static', '--help']);
    assert.equal(r.status, 0);
    const help = r.stdout.replace(/\s+/g, ' ');
    assert.match(help, /--out <dir> where to write files\/, mirror\.json, nginx\.conf, site\/ and site-objects\.json/);
    assert.match(help, /and site\/, the same documents at their own paths for any static host/);
  });

  describe('once a release is published', () => {
    before(async () => {
      const r = await gspc(['publish', demoCorpus, '--data-dir', data, '--public-url', ORIGIN]);
      assert.equal(r.status, 0, r.stderr);
    });

    it('keygen says the keys are kept and what replaces one, not "use --force", which is refused', async () => {
      const keys = join(data, 'keys');
      const again = await gspc(['keygen', '--data-dir', data]);
      assert.equal(again.status, 0, again.stderr);
      assert.doesNotMatch(again.stdout, /use --force/);
      assert.equal(
        again.stdout.trim(),
        `all keys already exist in ${keys}, and they are kept: it has signed published releases (in-use.json), so keygen --force is refused. Replace a key with gspc keys rotate <board|agent-card|identity-root>, or one that leaked with gspc keys revoke <kid> (docs/operations.md, "Keys")`,
      );
      // What it says is refused is refused; what it points to works.
      assert.equal((await gspc(['keygen', '--force', '--data-dir', data])).status, 2);
    });

    it('keys revoke of the board key tells the operator to give witnesses the new /log/vkey; of an agent-card key it does not', async () => {
      const card = await gspc([
        'keys',
        'revoke',
        'card-attestation-1',
        '--compromised-since',
        '2026-01-01T00:00:00Z',
        '--data-dir',
        data,
      ]);
      assert.equal(card.status, 0, card.stderr);
      assert.doesNotMatch(card.stdout, /vkey/);
      const board = await gspc([
        'keys',
        'revoke',
        'board-attestation-1',
        '--compromised-since',
        '2026-01-01T00:00:00Z',
        '--data-dir',
        data,
      ]);
      assert.equal(board.status, 0, board.stderr);
      assert.equal(
        board.stdout.trim().split('\n').at(-1),
        'Witnesses: the log verifier key (/log/vkey) changes with the board key at that publish. Give each transparency-log witness the new /log/vkey right after it, or they stop cosigning the log.',
      );
    });
  });
});
