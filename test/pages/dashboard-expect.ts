/**
 * The dashboard's tables compared with the JSON the service serves, tab by tab: one set of
 * checks for the plain-HTTP view and the rendered page (dashboard-view.ts). Nothing here types
 * an expected number: each comes from the served document passed in.
 */
import assert from 'node:assert/strict';
import type { Row, View } from './dashboard-view.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- served JSON, read field by field */
type Json = any;

export const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** A numeric cell: the exact served value in data-value, and (given a format) its text. */
function num(
  row: Row,
  i: number,
  expected: number | null | undefined,
  what: string,
  format?: (x: number) => string,
): void {
  const c = row.cells[i]!;
  if (expected === undefined || expected === null) {
    assert.equal(c.value, '', `${what}: no value`);
    return;
  }
  assert.equal(Number(c.value), expected, `${what}: data-value`);
  if (format) assert.equal(c.text, format(expected), `${what}: text`);
}

const ids = (rows: Row[], key = 'id') => rows.map((r) => r.data[key]);

export function expectMeasured(v: View, board: Json): void {
  const t = v.tables;
  const comparisons = board.axes.filter((r: Json) => r.status === 'MEASURED' && r.kind === 'model-comparison');
  const facts = board.axes.filter((r: Json) => r.status === 'MEASURED' && r.kind === 'deterministic-facts');
  const notMeasured = board.axes.filter((r: Json) => r.status !== 'MEASURED');
  assert.deepEqual(
    ids(t['dash-measured-comparisons']!, 'axis'),
    comparisons.map((r: Json) => r.axis),
  );
  assert.deepEqual(
    ids(t['dash-measured-facts']!, 'axis'),
    facts.map((r: Json) => r.axis),
  );
  assert.deepEqual(
    ids(t['dash-measured-unmeasured']!, 'axis'),
    notMeasured.map((r: Json) => r.axis),
  );
  // Every board row is on the page exactly once: nothing hidden.
  assert.equal(comparisons.length + facts.length + notMeasured.length, board.axes.length);
  comparisons.forEach((r: Json, i: number) => {
    const row = t['dash-measured-comparisons']![i]!;
    num(row, 2, r.accuracy, `${r.axis} accuracy`, pct);
    num(row, 3, r.interval?.[0], `${r.axis} interval low`, pct);
    num(row, 4, r.interval?.[1], `${r.axis} interval high`, pct);
    assert.equal(row.data['separation'], r.separation ?? '', `${r.axis} separation`);
    assert.ok(row.cells[5]!.text.startsWith(r.separation ?? '—'), `${r.axis} separation text`);
    num(row, 6, r.separation_p, `${r.axis} p`);
    num(row, 7, r.n, `${r.axis} n`, String);
    assert.equal(row.cells[8]!.text, r.separation_evidence?.next_best?.model ?? '—', `${r.axis} basis`);
    num(row, 9, r.separation_evidence?.next_best?.accuracy, `${r.axis} basis accuracy`, pct);
    assert.equal(
      row.cells[1]!.text,
      r.leader ?? (r.public_leader_state ? 'no public leader' : '—'),
      `${r.axis} leader`,
    );
    // A win mark only for a SEPARATED public leader: a TIE or UNTESTED row is never marked so.
    const win = r.separation === 'SEPARATED' && r.leader !== undefined;
    assert.equal(row.data['win'], String(win), `${r.axis} win flag`);
    assert.equal(row.cells[5]!.text.includes('▲'), win, `${r.axis} win mark`);
    if (r.public_leader_state) assert.ok(row.cells[11]!.text.includes(r.public_leader_state), `${r.axis} leader state`);
  });
  facts.forEach((r: Json, i: number) => {
    const row = t['dash-measured-facts']![i]!;
    num(row, 2, r.n, `${r.axis} n`, String);
    num(row, 3, r.facts_checked, `${r.axis} checked`, String);
    num(row, 4, r.facts_held, `${r.axis} held`, String);
  });
  notMeasured.forEach((r: Json, i: number) => {
    const row = t['dash-measured-unmeasured']![i]!;
    assert.equal(row.data['status'], r.status);
    assert.equal(row.cells[1]!.text, r.status);
    num(row, 4, r.n, `${r.axis} n`, String);
  });
  assert.equal(v.fields['public_count'], board.totals.public_count);
  assert.equal(v.fields['separation_public_count'], board.totals.separation_public_count);
}

export function expectRegulators(v: View, feed: Json, obligations: Json[], previews: Map<string, Json>): void {
  assert.equal(v.fields['version'], feed.version);
  assert.equal(v.fields['verified_as_of'], feed.verified_as_of);
  assert.equal(v.fields['due_by'], feed.reverification.due_by);
  assert.equal(v.fields['observed_at'], feed.observed_at);
  for (const k of ['deadlines', 'in_force', 'upcoming']) assert.equal(v.fields[k], String(feed.counts[k]), k);
  const rows = v.tables['dash-regulation-deadlines']!;
  assert.deepEqual(
    ids(rows),
    feed.deadlines.map((d: Json) => d.id),
  );
  feed.deadlines.forEach((d: Json, i: number) => {
    const row = rows[i]!;
    assert.equal(row.cells[3]!.text, d.applies_from);
    num(row, 4, d.days_until, `${d.id} days_until`, String);
    assert.equal(row.cells[5]!.text, d.in_force ? 'yes' : 'no');
    assert.equal(row.cells[6]!.text, d.status);
  });
  const ob = v.tables['dash-obligations']!;
  assert.deepEqual(
    ids(ob),
    obligations.map((o) => o.id),
  );
  obligations.forEach((o, i) => {
    const row = ob[i]!;
    for (const a of o.axes) assert.ok(row.cells[2]!.text.includes(a), `${o.id} cites ${a}`);
    const p = previews.get(o.id);
    if (p) {
      num(row, 3, p.relevant_signed_cards, `${o.id} cards`, String);
      for (const c of p.cards) assert.ok(row.cells[4]!.text.includes(c.subject), `${o.id} card ${c.subject}`);
    } else assert.equal(row.cells[3]!.text, 'not read');
  });
}

export function expectProvenance(
  v: View,
  docs: { root: Json; witness: Json; matrix: Json; withdrawals: Json; supersessions: Json; corrections: Json },
): void {
  const { root, witness, matrix, withdrawals, supersessions, corrections } = docs;
  assert.equal(v.fields['merkle_root'], root.merkle_root);
  assert.equal(v.fields['leaf_count'], String(root.leaf_count));
  assert.equal(v.fields['as_of'], root.as_of);
  assert.equal(v.fields['kid'], root.kid);
  assert.equal(v.fields['root_sha256'], witness.root_sha256);
  assert.equal(v.fields['root_bytes'], String(witness.root_bytes));
  const w = v.tables['dash-witnesses']!;
  assert.deepEqual(
    ids(w),
    witness.witnesses.map((x: Json) => x.witness),
  );
  witness.witnesses.forEach((x: Json, i: number) => assert.equal(w[i]!.cells[1]!.text, x.state));
  const counts = v.tables['dash-matrix-counts']!;
  const count = (id: string) => counts.find((r) => r.data['id'] === id)!;
  for (const k of ['cells', 'cells_with_outer_signatures', 'models', 'represented_axes'])
    num(count(k), 1, matrix.counts[k], k, String);
  num(count('withdrawals'), 1, withdrawals.entries.length, 'withdrawals', String);
  num(count('supersessions'), 1, supersessions.entries.length, 'supersessions', String);
  const per = new Map<string, number>();
  for (const c of matrix.cells) per.set(c.axis, (per.get(c.axis) ?? 0) + 1);
  const axes = v.tables['dash-matrix-axes']!;
  assert.deepEqual(
    axes.map((r) => [r.data['id'], Number(r.cells[1]!.value)]),
    [...per],
  );
  assert.equal(per.size, matrix.counts.represented_axes);
  const cr = v.tables['dash-corrections']!;
  assert.deepEqual(
    ids(cr),
    corrections.corrections.map((e: Json) => e.id),
  );
  corrections.corrections.forEach((e: Json, i: number) => {
    assert.equal(cr[i]!.cells[1]!.text, e.status);
    assert.equal(cr[i]!.cells[4]!.text, e.correction_latency.kind);
    num(cr[i]!, 5, e.correction_latency.upper_bound_seconds, `${e.id} latency`, String);
  });
  assert.equal(v.fields['corrections_count'], String(corrections.corrections.length));
}

/** Rails per state, in first-seen order (what the compute plot draws). */
export function railStateCounts(fabric: Json): [string, number][] {
  const by = new Map<string, number>();
  for (const r of fabric.rails) by.set(r.state, (by.get(r.state) ?? 0) + 1);
  return [...by];
}

export function expectCompute(v: View, compute: Json, fabric: Json): void {
  const census = v.tables['dash-census']!;
  const c = (id: string) => census.find((r) => r.data['id'] === id)!;
  num(c('n_unique_ids'), 1, compute.census.n_unique_ids, 'n_unique_ids', String);
  num(c('n_measured'), 1, compute.census.n_measured, 'n_measured', String);
  assert.equal(compute.census.n_measured, 0);
  num(c('pages_done'), 1, compute.census.pages_done, 'pages_done', String);
  assert.equal(c('listing_state_all').cells[1]!.text, compute.census.listing_state_all);
  assert.equal(c('listing_state_all').cells[1]!.text, 'DISCOVERED');
  assert.equal(c('status_all').cells[1]!.text, compute.census.status_all);
  assert.ok(c('complete').cells[1]!.text.startsWith(compute.census.complete ? 'yes' : 'no'));
  assert.ok(c('complete').cells[1]!.text.includes(compute.census.complete_reason));
  assert.equal(c('sha256_jsonl').cells[1]!.text, compute.census.sha256_jsonl);
  const rails = v.tables['dash-rails']!;
  assert.deepEqual(
    ids(rails),
    fabric.rails.map((r: Json) => r.id),
  );
  fabric.rails.forEach((r: Json, i: number) => {
    assert.equal(rails[i]!.cells[2]!.text, r.state, `${r.id} state`);
    assert.equal(rails[i]!.cells[3]!.text, r.last_error ?? '—', `${r.id} last_error`);
  });
  const states = v.tables['dash-rail-states']!;
  assert.deepEqual(
    states.map((r) => [r.data['id'], Number(r.cells[1]!.value)]),
    railStateCounts(fabric),
  );
}
