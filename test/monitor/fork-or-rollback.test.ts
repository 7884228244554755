/**
 * A smaller log is a rollback only if it is a prefix of the log the monitor verified (issue 36
 * review, finding 4g): with a view of the same poll serving that log, a smaller log that is not
 * its prefix is a fork; with none, the monitor cannot tell (it keeps the size and root, not the
 * entries) and says rollback, saying so (docs/operations.md, the alert table).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgePoll, type ViewObservation } from '../../src/core/monitor/log-watch.js';

/** A view whose log has `roots` (size → root) as its prefixes, and its checkpoint at `size`. */
const view = (name: string, size: number, roots: Record<number, string>): ViewObservation => ({
  view: name,
  checkpoint: { size, root: roots[size]!, boardKey: 'k' },
  holdsPrefix: (n, root) => roots[n] === root,
});
const honest = { 36: 'a36', 37: 'a37' };
const last = { size: 37, root: 'a37', boardKey: 'k' };

describe('a log smaller than the one the monitor verified', () => {
  it('not a prefix of the log another view of the poll serves: fork', () => {
    const { alerts } = judgePoll(last, [view('origin', 37, honest), view('thief', 36, { 36: 'b36' })]);
    const thief = alerts.filter((a) => a.view === 'thief').map((a) => a.alert);
    assert.deepEqual(thief, ['fork']);
    assert.match(
      alerts.find((a) => a.view === 'thief')!.detail,
      /not the first 36 of that log .*origin.*a fork, not a rollback/,
    );
  });

  it('its prefix: rollback, naming the view that shows it', () => {
    const { alerts } = judgePoll(last, [view('origin', 37, honest), view('replica', 36, honest)]);
    assert.deepEqual(
      alerts.map((a) => a.alert),
      ['rollback'],
    );
    assert.match(alerts[0]!.detail, /they are the first 36 of that log \(origin\)/);
  });

  it('watched alone: rollback, saying whether it is a prefix cannot be told', () => {
    const { alerts } = judgePoll(last, [view('thief', 36, { 36: 'b36' })]);
    assert.deepEqual(
      alerts.map((a) => a.alert),
      ['rollback'],
    );
    assert.match(alerts[0]!.detail, /cannot be told/);
  });
});
