/**
 * The monitor's state file, read strictly (issue 36). Before, a monitor.json that was not JSON
 * gave a stack trace, `{"last":{"size":"x"}}` a false `fork` alert, and another board's state a
 * `rollback`. Now a corrupt or mistyped state is `monitor_state_invalid` and another board's is
 * `monitor_state_foreign` (test/monitor/key-anchor.e2e.test.ts runs it against two boards): one
 * line on standard error, exit 2, nothing fetched, nothing written.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GspcError } from '../../src/core/errors.js';
import { foreignState, parseMonitorState, STATE_SCHEMA } from '../../src/core/monitor/monitor-state.js';
import { gspc } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { viewServer } from './board.js';

const DID = 'did:web:board.example';
const VALID = {
  schema: STATE_SCHEMA,
  views: ['https://board.example'],
  last: { size: 36, root: 'ab'.repeat(32), boardKey: 'A'.repeat(43) },
  did: DID,
  log_origin: 'board.example/log',
  pinned: {
    methods: { [`${DID}#board-attestation-1`]: 'A'.repeat(43), [`${DID}#identity-root`]: 'B'.repeat(43) },
    transitions: [],
    chains: {},
  },
  documents: { 'https://board.example': 'cd'.repeat(32) },
  checked_at: '2026-11-28T00:00:00.000Z',
};

const refusal = (text: string): string => {
  try {
    parseMonitorState(text, '/s/monitor.json');
  } catch (e) {
    assert.ok(e instanceof GspcError);
    assert.equal(e.code, 'monitor_state_invalid');
    return e.message;
  }
  assert.fail('accepted');
};
const edited = (change: (s: typeof VALID & Record<string, unknown>) => unknown) => {
  const s = structuredClone(VALID) as typeof VALID & Record<string, unknown>;
  change(s);
  return JSON.stringify(s);
};

describe('the monitor state file', () => {
  it('a valid state reads back as written; a state of issue 31 (no DID, no pins) still reads', () => {
    assert.deepEqual(parseMonitorState(JSON.stringify(VALID), 'x'), VALID);
    const old = { schema: STATE_SCHEMA, views: ['https://a'], last: VALID.last, checked_at: VALID.checked_at };
    assert.deepEqual(parseMonitorState(JSON.stringify(old), 'x'), old);
  });

  it('not JSON, or a field of the wrong type or unknown: monitor_state_invalid naming the file and the field', () => {
    assert.match(refusal('{"schema": '), /^\/s\/monitor\.json is not a usable monitor state: not JSON \(/);
    assert.match(refusal('[]'), /: not a JSON object\. Restore it from a backup/);
    assert.match(refusal('{"last":{"size":"x"}}'), /: schema is undefined, not svc\.monitor-state\/1\./);
    const cases: [(s: Json) => unknown, RegExp][] = [
      [(s) => (s.last.size = 'x'), /last\.size is not a whole number from 1/],
      [(s) => (s.last.size = 0), /last\.size is not a whole number from 1/],
      [(s) => (s.last.root = 'zz'), /last\.root is not 64 hex digits/],
      [(s) => (s.last.boardKey = 5), /last\.boardKey is not an Ed25519 JWK x/],
      [(s) => (s.last.extra = 1), /last\.extra is not a field of svc\.monitor-state\/1/],
      [(s) => (s.views = 'https://a'), /views is not a list of URLs/],
      [(s) => (s.did = 'did:key:z6Mk'), /did is not a did:web/],
      [(s) => (s.pinned.methods = { a: 7 }), /pinned\.methods\["a"\] is not an Ed25519 JWK x/],
      [(s) => (s.pinned.transitions = ['x']), /pinned\.transitions is not a list of transition ids/],
      [(s) => (s.pinned.chains = { f: [{ y: 1 }] }), /pinned\.chains\["f"\] is not a list of \{x, transition\}/],
      [(s) => (s.documents = { v: 'x' }), /documents\["v"\] is not a SHA-256/],
      [(s) => (s.surprise = true), /surprise is not a field of svc\.monitor-state\/1/],
    ];
    for (const [change, reason] of cases) assert.match(refusal(edited(change)), reason);
  });

  it('foreignState: a remembered DID that no answering view names is another board’s', () => {
    const state = parseMonitorState(JSON.stringify(VALID), 'x');
    assert.equal(foreignState(state, 'x', []), undefined, 'no view answered: nothing to tell');
    assert.equal(foreignState(state, 'x', ['did:web:other.example', DID]), undefined, 'one view names it');
    const e = foreignState(state, '/s/monitor.json', ['did:web:other.example']);
    assert.equal(e?.code, 'monitor_state_foreign');
    assert.match(
      e!.message,
      /remembers did:web:board\.example \(log board\.example\/log\), and these views name did:web:other\.example/,
    );
    assert.equal(foreignState({ ...state, did: undefined } as never, 'x', ['did:web:other.example']), undefined);
  });

  it('gspc monitor with a corrupt state: one line, exit 2, no stack, nothing fetched or written', async () => {
    let asked = 0;
    const view = await viewServer((_req, res) => {
      asked++;
      res.writeHead(500).end();
    });
    for (const [text, reason] of [
      ['not json at all', /is not a usable monitor state: not JSON \(/],
      [
        JSON.stringify({ ...VALID, last: { ...VALID.last, size: 'x' } }),
        /is not a usable monitor state: last\.size is not a whole number from 1\./,
      ],
    ] as const) {
      const dir = tempDir();
      writeFileSync(join(dir, 'monitor.json'), text);
      const r = await gspc(['monitor', view, '--state', dir, '--once']);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, new RegExp(`^gspc: ${dir}/monitor\\.json ${reason.source}.*\\n$`));
      assert.equal(r.stderr.split('\n').length, 2, 'one line');
      assert.equal(readFileSync(join(dir, 'monitor.json'), 'utf8'), text);
    }
    assert.equal(asked, 0);
  });
});

/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- test edits */
type Json = any;
