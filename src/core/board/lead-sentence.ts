/**
 * The size of a lead in words a non-statistician can read (issue 29), from a pair of the
 * every-model document: "demo/atlas-70b leads demo/borealis-34b by 13.5 points (95% interval 7.8
 * to 19.1) on the 400 items both answered; a gap smaller than 8.3 points could not have been seen
 * with 80% power at this n." Used by the agents and the pages alike.
 */
import type { ModelsDocument, PairEntry } from './models-document.js';

const points = (v: number) => (v * 100).toFixed(1);

/** The tested pair of `first` and `second` (in either order), oriented first − second. */
export function pairOf(doc: ModelsDocument, first: string, second: string): PairEntry | undefined {
  const p = doc.pairs.find(
    (x) => (x.first === first && x.second === second) || (x.first === second && x.second === first),
  );
  if (!p || p.first === first) return p;
  const [lo, hi] = p.difference_interval ?? [0, 0];
  return {
    ...p,
    first,
    second,
    ...(p.b !== undefined && { b: p.c, c: p.b }),
    ...(p.difference !== undefined && {
      difference: -p.difference,
      difference_interval: [-hi, -lo] as [number, number],
    }),
  };
}

export function leadSentence(doc: ModelsDocument, leader: string, basis: string): string | undefined {
  const p = pairOf(doc, leader, basis);
  if (!p || p.state === 'UNTESTED' || p.difference === undefined || p.difference_interval === undefined)
    return undefined;
  const [lo, hi] = p.difference_interval;
  const verb = p.difference >= 0 ? 'leads' : 'trails';
  return (
    `${leader} ${verb} ${basis} by ${points(Math.abs(p.difference))} points (95% interval ${points(lo)} to ${points(hi)}) ` +
    `on the ${p.n_pairs} items both answered (${p.state} after Holm${p.p_holm === null ? ': an own model, unadjusted' : ''}); ` +
    `a gap smaller than ${points(p.mdd!)} points could not have been seen with 80% power at this n.`
  );
}

/** The public models by tie-group label, in the document's order: `{a: [m1], b: [m2, m3], …, aa: […]}`. */
export function tieGroups(doc: ModelsDocument): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const m of doc.models) if (!m.own) for (const l of m.tie_groups) (groups[l] ??= []).push(m.model);
  return groups;
}

/** `a: m1; b: m2, m3`: the public models by tie-group letter. */
export function tieGroupsText(doc: ModelsDocument): string {
  return Object.entries(tieGroups(doc))
    .map(([l, ms]) => `${l}: ${ms.join(', ')}`)
    .join('; ');
}
