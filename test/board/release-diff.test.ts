/** What changed between two releases (src/core/board/release-diff.ts), on views built by hand: every kind of change, and nothing else. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeDiff, diffReleases, type ReleaseView } from '../../src/core/board/release-diff.js';

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
