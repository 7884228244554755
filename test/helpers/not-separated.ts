/**
 * The defining property of `not_separated` in `svc.gspc-models/0.3` (issue 39), checked against
 * pairs[] alone, for the re-derivation and the many-models tests.
 */
import assert from 'node:assert/strict';

/**
 * `not_separated` (0.3): rank r lies in a public model's ranges exactly when its pair with the
 * model of rank r is not SEPARATED (read from pairs[], not from the letters); ranges ascending,
 * disjoint and not adjacent (so there is one way to write a set); null for own or unranked models.
 */
export function assertNotSeparatedRanges(doc: { models: any[]; pairs: any[] }, refused: boolean): void {
  const byRank = new Map<number, string>(
    doc.models.filter((m: any) => m.rank !== null).map((m: any) => [m.rank, m.model]),
  );
  const sep = new Set<string>(
    doc.pairs.filter((p: any) => !p.own && p.state === 'SEPARATED').map((p: any) => `${p.first}\n${p.second}`),
  );
  const separated = (x: string, y: string) => sep.has(`${x}\n${y}`) || sep.has(`${y}\n${x}`);
  for (const m of doc.models) {
    if (m.rank === null || refused) {
      assert.equal(m.not_separated, null, `${m.model}: no ranges without a rank`);
      continue;
    }
    const ranges = m.not_separated as [number, number][];
    for (let k = 0; k < ranges.length; k++) {
      assert.ok(ranges[k]![0] <= ranges[k]![1], `${m.model}: range ${k}`);
      if (k > 0) assert.ok(ranges[k]![0] > ranges[k - 1]![1] + 1, `${m.model}: ranges ${k - 1}, ${k} overlap or touch`);
    }
    const inRanges = (r: number) => ranges.some(([a, b]) => a <= r && r <= b);
    for (const [r, other] of byRank)
      assert.equal(inRanges(r), other === m.model || !separated(m.model, other), `${m.model} ~ rank ${r} (${other})`);
    assert.ok(!inRanges(0) && !inRanges(byRank.size + 1), `${m.model}: ranges within 1..${byRank.size}`);
  }
}
