/**
 * What gspc prints is inert in a terminal (issue 39): a view being verified chooses some of the
 * text `gspc verify` prints (its DID, the log origin it claims), and a cursor-up-and-erase escape
 * in it would overwrite the FAIL line printed just before with whatever follows. Every control
 * and bidirectional character is written as its `\uXXXX` escape; `--json` stays the same JSON
 * value.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { terminalText } from '../../src/cli/terminal-text.js';
import { gspc } from '../helpers/cli.js';
import { demoCorpus, tempDir } from '../helpers/tmp.js';

/** Any character a terminal would act on rather than show (what the output must never hold). */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const ERASE_AND_FLIP = '\u001b[1A\u001b[2K\u202e';

describe('gspc output is inert in a terminal', () => {
  it('terminalText escapes every control and bidirectional character, and only those', () => {
    for (let c = 0; c < 0xa0; c++) {
      const ch = String.fromCharCode(c);
      const out = terminalText(`a${ch}b`);
      if (c === 0x09 || c === 0x0a || (c >= 0x20 && c < 0x7f)) assert.equal(out, `a${ch}b`, `U+${c.toString(16)}`);
      else assert.equal(out, `a\\u${c.toString(16).padStart(4, '0')}b`, `U+${c.toString(16)}`);
    }
    for (const c of [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069])
      assert.equal(terminalText(String.fromCharCode(c)), `\\u${c.toString(16).padStart(4, '0')}`);
    const plain = 'Ünïcødé 模型 🙂 – “quotes” é\u0301 \u200d';
    assert.equal(terminalText(plain), plain, 'letters, emoji, combining marks and ZWJ are shown as they are');
    const escaped = terminalText(JSON.stringify({ did: `did:web:${ERASE_AND_FLIP}x` }));
    assert.deepEqual(JSON.parse(escaped), { did: `did:web:${ERASE_AND_FLIP}x` }, 'the same JSON value');
  });

  it('gspc verify and gspc diff of a view that answers every path with escapes: a refusal in words, inert, no stack', async () => {
    const hostile = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`\u001b[2K\u001b[1AOK VALID \u009b31m\u202e${'x'.repeat(50)}`);
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
    try {
      for (const args of [
        ['verify', url],
        ['diff', url, url],
      ]) {
        const r = await gspc(args);
        assert.notEqual(r.status, 0, args.join(' '));
        assert.doesNotMatch(r.stdout + r.stderr, ACTIVE, args.join(' '));
        assert.doesNotMatch(r.stderr, /\n\s+at /, `${args.join(' ')}: no stack trace`);
        assert.match(r.stderr, /gspc: .*not JSON/, args.join(' '));
      }
    } finally {
      hostile.close();
    }
  });

  it('gspc verify of a view whose DID carries an erase-line escape: every line shown, FAIL kept, exit 1', async () => {
    const data = tempDir();
    assert.equal((await gspc(['keygen', '--data-dir', data])).status, 0);
    await gspc(['publish', demoCorpus, '--data-dir', data]);
    const release = join(data, 'releases', readdirSync(join(data, 'releases')).find((d) => d.startsWith('r-'))!);
    const keysFile = join(release, 'evidence', 'public-keys.json');
    const keys = readFileSync(keysFile, 'utf8');
    assert.ok(keys.includes('did:web:'));
    writeFileSync(keysFile, keys.replace('did:web:', `did:web:${JSON.stringify(ERASE_AND_FLIP).slice(1, -1)}`));
    const text = await gspc(['verify', release]);
    assert.equal(text.status, 1);
    assert.doesNotMatch(text.stdout + text.stderr, ACTIVE);
    assert.match(text.stdout, /FAIL log_origin: .*\\u001b\[1A\\u001b\[2K\\u202elocalhost/);
    assert.match(text.stdout.trim().split('\n').at(-1)!, /^INVALID: /);
    const json = await gspc(['verify', release, '--json']);
    assert.doesNotMatch(json.stdout, ACTIVE);
    const report = JSON.parse(json.stdout) as { checks: { check: string; detail: string }[] };
    const origin = report.checks.find((c) => c.check === 'log_origin')!;
    assert.ok(origin.detail.includes(ERASE_AND_FLIP), 'the JSON value is the text the view served');
  });
});
