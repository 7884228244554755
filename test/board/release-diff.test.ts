/**
 * What changed between two releases (src/core/board/release-diff.ts), on views built by hand:
 * every kind of change, and nothing else; and which way it reads (release-order.ts, issue 39):
 * old → new when the second log extends the first, else a rollback, a fork or another board,
 * said in the JSON and before any change in words.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeDiff, diffReleases, type ReleaseView } from '../../src/core/board/release-diff.js';
import { directionOf, type ReleaseLog } from '../../src/core/board/release-order.js';

const view = (over: Partial<ReleaseView>): ReleaseView => ({
  id: 'r-a',
  as_of: '2026-11-01T00:00:00Z',
  axes: [
    { axis: 'governance', status: 'MEASURED', leader: 'm/a', separation: 'SEPARATED', n: 400, accuracy: 0.855 },
    { axis: 'jail', status: 'MEASURED', leader: 'm/b', separation: 'TIE', n: 100, accuracy: 0.5 },
  ],
  cards: new Map([
    ['aa'.repeat(32), 'm/a on governance'],
    ['bb'.repeat(32), 'm/b on jail'],
    ['cc'.repeat(32), 'm/c on jail'],
  ]),
  withdrawn: new Map(),
  superseded: new Map(),
  corrections: new Map([['C-1', 'first']]),
  transitions: new Map(),
  ...over,
});

describe('release diff', () => {
  it('the same release: nothing changed', () => {
    const d = diffReleases(view({}), view({}));
    assert.equal(d.changed, false);
    assert.deepEqual(describeDiff(d).slice(1), ['nothing changed']);
  });

  it('names each change once, with both values', () => {
    const to = view({
      id: 'r-b',
      axes: [
        { axis: 'governance', status: 'MEASURED', leader: 'm/b', separation: 'TIE', n: 400, accuracy: 0.855 },
        { axis: 'swarm', status: 'UNMEASURED', n: 0 },
      ],
      cards: new Map([
        ['aa'.repeat(32), 'm/a on governance'],
        ['dd'.repeat(32), 'm/b on jail'],
      ]),
      superseded: new Map([['bb'.repeat(32), 'dd'.repeat(32)]]),
      withdrawn: new Map([['cc'.repeat(32), 'refused bank']]),
      corrections: new Map([
        ['C-1', 'first'],
        ['C-2', 'second'],
      ]),
      transitions: new Map([['ee'.repeat(32), 'rotation of board-attestation-1 (sequence 1)']]),
    });
    const d = diffReleases(view({}), to);
    assert.deepEqual(d.axes, {
      added: ['swarm'],
      removed: ['jail'],
      changed: [
        { axis: 'governance', field: 'leader', from: 'm/a', to: 'm/b' },
        { axis: 'governance', field: 'separation', from: 'SEPARATED', to: 'TIE' },
      ],
    });
    assert.deepEqual(d.cards, {
      added: [{ sha256: 'dd'.repeat(32), what: 'm/b on jail' }],
      removed: [],
      superseded: [{ sha256: 'bb'.repeat(32), by: 'dd'.repeat(32) }],
      withdrawn: [{ sha256: 'cc'.repeat(32), reason: 'refused bank' }],
    });
    assert.deepEqual(d.corrections.added, [{ id: 'C-2', what_was_wrong: 'second' }]);
    assert.deepEqual(d.key_transitions.added, [
      { id: 'ee'.repeat(32), what: 'rotation of board-attestation-1 (sequence 1)' },
    ]);
    assert.deepEqual(describeDiff(d), [
      'r-a (as of 2026-11-01T00:00:00Z) → r-b (as of 2026-11-01T00:00:00Z)',
      'axis added: swarm',
      'axis removed: jail',
      'governance: leader "m/a" → "m/b"',
      'governance: separation "SEPARATED" → "TIE"',
      `card added: ${'dd'.repeat(8)} (m/b on jail)`,
      `card superseded: ${'bb'.repeat(8)} by ${'dd'.repeat(8)}`,
      `card withdrawn: ${'cc'.repeat(8)}: refused bank`,
      'correction added: C-2: second',
      `key transition: rotation of board-attestation-1 (sequence 1) (${'ee'.repeat(8)})`,
    ]);
  });

  it('a card simply gone from the root is named as such; accuracy prints to four places', () => {
    const d = diffReleases(
      view({}),
      view({
        cards: new Map([['aa'.repeat(32), 'm/a on governance']]),
        axes: [
          { axis: 'governance', status: 'MEASURED', leader: 'm/a', separation: 'SEPARATED', n: 400, accuracy: 0.86 },
          { axis: 'jail', status: 'MEASURED', leader: 'm/b', separation: 'TIE', n: 100, accuracy: 0.5 },
        ],
      }),
    );
    assert.deepEqual(
      d.cards.removed.map((c) => c.what),
      ['m/b on jail', 'm/c on jail'],
    );
    assert.ok(describeDiff(d).includes('governance: accuracy 0.8550 → 0.8600'));
  });
});

describe('which way a release diff reads', () => {
  const did = 'did:web:board.example';
  const log = (entries: string[], over: Partial<ReleaseLog> = {}): ReleaseLog => ({
    did,
    entries,
    root: `${entries.length}`.padStart(64, '0'),
    ...over,
  });
  const short = log(['a', 'b']);
  const long = log(['a', 'b', 'c', 'd']);

  it('a later release of the same board: its log extends the first, read old → new', () => {
    assert.deepEqual(directionOf(short, long), {
      reading: 'from → to',
      log: 'extends',
      detail: 'the second log extends the first: 2 → 4 entries',
    });
    assert.equal(directionOf(long, log(['a', 'b', 'c', 'd'])).log, 'same');
  });

  it('the arguments swapped: the second log is shorter, a rollback, said before any change', () => {
    const back = directionOf(long, short);
    assert.equal(back.log, 'rollback');
    assert.match(back.detail, /^the second log is shorter: this is a rollback, or the arguments are swapped \(/);
    const d = diffReleases(view({ id: 'r-new' }), view({ id: 'r-old' }), { from: long, to: short });
    assert.deepEqual(d.from, {
      release: 'r-new',
      as_of: '2026-11-01T00:00:00Z',
      did,
      log: { size: 4, root: long.root },
    });
    assert.deepEqual(d.to.log, { size: 2, root: short.root });
    assert.equal(d.direction?.log, 'rollback');
    const words = describeDiff(d);
    assert.match(words[1]!, /^WARNING: the second log is shorter: this is a rollback, or the arguments are swapped/);
    assert.match(words[1]!, /not what a later release changed$/);
  });

  it('a log that differs at an entry is a fork, shorter or not', () => {
    assert.deepEqual(
      { ...directionOf(long, log(['a', 'x', 'c', 'd', 'e'])), detail: '' },
      { reading: 'from → to', log: 'fork', fork_at: 1, detail: '' },
    );
    const shorterFork = directionOf(long, log(['a', 'b', 'x']));
    assert.equal(shorterFork.fork_at, 2);
    assert.match(
      shorterFork.detail,
      /^the second log is shorter, and the two logs differ at entry 2 .*: a fork of the log/,
    );
  });

  it('two boards: their logs are not compared, whatever their sizes', () => {
    const other = directionOf(short, log(['a', 'b', 'c'], { did: 'did:web:other.example' }));
    assert.equal(other.log, 'other_board');
    assert.match(
      other.detail,
      /two different boards: the first is did:web:board\.example, the second did:web:other\.example/,
    );
  });

  it('forward, the words say old → new on the line after the header; without logs (/api/changes), no direction', () => {
    const d = diffReleases(view({}), view({ id: 'r-b' }), { from: short, to: long });
    assert.deepEqual(describeDiff(d), [
      'r-a (as of 2026-11-01T00:00:00Z) → r-b (as of 2026-11-01T00:00:00Z)',
      'reads old → new (the first argument to the second): the second log extends the first: 2 → 4 entries',
      'nothing changed',
    ]);
    const served = diffReleases(view({}), view({ id: 'r-b' }));
    assert.equal(served.direction, undefined);
    assert.deepEqual(served.from, { release: 'r-a', as_of: '2026-11-01T00:00:00Z' });
    assert.equal(describeDiff(served).length, 2);
  });
});
