/**
 * `gspc verify` checks every file a reader can fetch, not only the card bundle (issue 17): a
 * release directory (what a mirror serves) with one file changed is refused, naming the file and
 * the first byte that differs, whichever file it is.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { firstDifference } from '../../src/verify/first-difference.js';
import { dirSource } from '../../src/verify/release-source.js';
import { verifyRelease } from '../../src/verify/release-verifier.js';
import { demoApp } from '../helpers/app.js';
import { tempDir } from '../helpers/tmp.js';

const { dir } = demoApp();

function copyRelease(): string {
  const copy = join(tempDir(), 'release');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

/** Verifies a copy of the release after `edit`; the failed checks with their details. */
async function failedAfter(edit: (release: string) => void): Promise<Record<string, string>> {
  const copy = copyRelease();
  edit(copy);
  const r = await verifyRelease(dirSource(copy));
  assert.equal(r.ok, false, 'a changed release must not verify');
  return Object.fromEntries(r.checks.filter((c) => !c.ok).map((c) => [c.check, c.detail]));
}

const descriptor = (release: string) => JSON.parse(readFileSync(join(release, 'release.json'), 'utf8'));
const evidenceOf = (release: string, pattern: RegExp) =>
  (descriptor(release).evidence as { path: string }[]).map((f) => f.path).filter((p) => pattern.test(p));
const activeCards = (release: string) =>
  JSON.parse(readFileSync(join(release, 'evidence', 'cards-bundle.json'), 'utf8')).cards as {
    url: string;
    sha256: string;
    surface: string;
  }[];

describe('gspc verify: every file a reader fetches', () => {
  it('the unchanged release passes every check, the new ones among them', async () => {
    const r = await verifyRelease(dirSource(dir));
    assert.deepEqual(
      r.checks.filter((c) => !c.ok),
      [],
    );
    for (const check of [
      'served_documents',
      'card_files',
      'log_documents',
      'peritem_bound',
      'release_files',
      'release_files_checked',
    ])
      assert.ok(
        r.checks.some((c) => c.check === check && c.ok),
        check,
      );
    const files = r.checks.find((c) => c.check === 'card_files')!.detail;
    assert.match(
      files,
      /^36 active card files are the signed cards byte for byte; 3 other card file\(s\) carry a valid content address and signature$/,
    );
  });

  it('one card file with its correct count raised by one: named, with the first byte that differs (the bundle intact)', async () => {
    let url = '';
    const failed = await failedAfter((release) => {
      const card = activeCards(release).find((c) => c.surface === 'board.measurement')!;
      url = card.url;
      const path = join(release, 'evidence', card.url);
      const text = readFileSync(path, 'utf8');
      writeFileSync(
        path,
        text.replace(/"correct": (\d+)/, (_, n: string) => `"correct": ${Number(n) + 1}`),
      );
    });
    assert.deepEqual(Object.keys(failed).sort(), ['card_files', 'release_files']);
    assert.match(
      failed.card_files!,
      new RegExp(
        `^${url.replaceAll('.', '\\.')}: first difference at byte \\d+ \\(line \\d+, column \\d+\\): expected "\\d`,
      ),
    );
  });

  it('a field added to the card index, a reformatted ledger, a changed root pointer: each named', async () => {
    const index = await failedAfter((release) => {
      const path = join(release, 'evidence', 'card-index.json');
      const doc = JSON.parse(readFileSync(path, 'utf8'));
      doc.cards[0].note = 'looks signed';
      writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
    });
    assert.match(index.served_documents!, /^\/cards\/index\.json: first difference at byte \d+/);

    const ledger = await failedAfter((release) => {
      const path = join(release, 'evidence', 'withdrawals.json');
      writeFileSync(path, JSON.stringify(JSON.parse(readFileSync(path, 'utf8')))); // same content, other bytes
    });
    assert.match(
      ledger.log_documents!,
      /^\/ledgers\/withdrawals\.json: first difference at byte 1 \(line 1, column 2\)/,
    );

    const pointer = await failedAfter((release) => {
      const path = join(release, 'evidence', 'card-root-latest.json');
      writeFileSync(
        path,
        readFileSync(path, 'utf8').replace('"witness_url": "/interop', '"witness_url": "https://elsewhere.example'),
      );
    });
    assert.match(pointer.served_documents!, /\/interop\/card-root-latest\.json: first difference/);
  });

  it('a withdrawn card file changed is refused by its content address', async () => {
    const failed = await failedAfter((release) => {
      const active = new Set(activeCards(release).map((c) => `evidence${c.url}`));
      const other = evidenceOf(release, /^evidence\/cards\//).find((p) => !active.has(p))!;
      const path = join(release, other);
      writeFileSync(path, readFileSync(path, 'utf8').replace('"as_of": "', '"as_of": "1'));
    });
    assert.match(failed.card_files!, /: content_address: hash mismatch/);
  });

  it('per-item rows changed together with the manifest: the signed cards still name the old bytes', async () => {
    const failed = await failedAfter((release) => {
      // An editor who rewrites the unsigned hashes on the way: the row file and the manifest.
      const rowsRel = 'peritem/jail.jsonl';
      const rowsPath = join(release, 'corpus', rowsRel);
      const rows = readFileSync(rowsPath, 'utf8').split('\n');
      rows[0] = rows[0]!.replace(/"label":"([^"]*)"/, '"label":"$1x"');
      writeFileSync(rowsPath, rows.join('\n'));
      const sha = createHash('sha256').update(readFileSync(rowsPath)).digest('hex');
      const manifestPath = join(release, 'peritem-manifest.json');
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      for (const f of manifest.files) if (f.url === '/peritem/jail.jsonl') f.sha256 = sha;
      writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    });
    assert.match(
      failed.peritem_bound!,
      /^cards naming other bytes than the manifest: \/cards\/[0-9a-f]{16}\.json \(\/peritem\/jail\.jsonl\)/,
    );
  });

  it('a file release.json lists that no check reads is reported, never passed over', async () => {
    const failed = await failedAfter((release) => {
      const extra = 'status/unlisted-extra.json';
      const bytes = Buffer.from('{"schema":"x"}\n');
      writeFileSync(join(release, 'corpus', extra), bytes);
      const d = descriptor(release);
      d.files.push({ path: extra, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
      writeFileSync(join(release, 'release.json'), `${JSON.stringify(d, null, 2)}\n`);
    });
    assert.deepEqual(Object.keys(failed), ['release_files_checked']);
    assert.equal(
      failed.release_files_checked,
      'served but not checked by gspc verify: /peritem/status/unlisted-extra.json',
    );
  });
});

describe('firstDifference', () => {
  it('names the byte, the line and column, and both sides; undefined when equal', () => {
    assert.equal(firstDifference(Buffer.from('abc'), Buffer.from('abc')), undefined);
    assert.equal(
      firstDifference(Buffer.from('{\n  "a": 1\n}'), Buffer.from('{\n  "a": 2\n}')),
      'first difference at byte 9 (line 2, column 8): expected "1\\n}", found "2\\n}"',
    );
    assert.equal(
      firstDifference(Buffer.from('ab'), Buffer.from('abc')),
      'first difference at byte 2 (line 1, column 3): expected the end of the file, found "c"',
    );
  });
});
