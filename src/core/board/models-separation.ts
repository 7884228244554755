/**
 * What the SEPARATED pairs of an every-model document say about its public models, once each
 * pair's state is set: the tie groups (letters), the ranks each model is not separated from, the
 * leader's group and who in it is UNTESTED with the leader. Apart from the derivation of the
 * pairs (models-document.ts) because a slice of an axis (item-slice.ts, issue 41) sets its pairs'
 * states from a family wider than its own document and must draw the same picture from them.
 */
import { compactLetters, notSeparatedRanges } from '../stats/letters.js';
import { MAX_TIE_GROUPS, type PairEntry } from './models-document-shape.js';

const TOO_MANY_GROUPS = `the separations need more than ${MAX_TIE_GROUPS} tie groups (maximal sets of public models no two of which are separated, labels a to zz): too many for a letter display; each model's not_separated gives the ranks it is not separated from, and leader_group the models not separated from the leader`;

export interface Separation {
  /** Per public model in rank order: its labels; null when no letters are given. */
  letters: string[][] | null;
  /** Per public model in rank order: the ranks it is not separated from ([] when none is given). */
  ranges: Array<Array<[number, number]>>;
  groups: number | null;
  groups_reason?: string;
  leader_group: string[];
  leader_untested: string[];
  untested_pairs: number;
}

/**
 * The picture of `pairs` (their states final) over `publicRanked` (public models with a parsed
 * response, in rank order). `noLetters`: a reason not to give letters or ranges at all (nothing
 * tested, a slice too small to separate anything); `refused`: a refused one-label bank.
 */
export function separationOf(
  publicRanked: readonly string[],
  pairs: readonly PairEntry[],
  refused: boolean,
  noLetters: string | undefined,
): Separation {
  // Which public pairs are SEPARATED, by rank index (a matrix: 499,500 pairs at 1,000 models).
  const count = publicRanked.length;
  const indexOf = new Map(publicRanked.map((m, i) => [m, i]));
  const separated = new Uint8Array(count * count);
  for (const p of pairs)
    if (!p.own && p.state === 'SEPARATED') {
      const [i, j] = [indexOf.get(p.first)!, indexOf.get(p.second)!];
      separated[i * count + j] = separated[j * count + i] = 1;
    }
  const isSeparated = (i: number, j: number) => separated[i * count + j] === 1;
  let untestedPairs = 0;
  for (const p of pairs) if (!p.own && p.state === 'UNTESTED') untestedPairs++;
  const letters = refused
    ? publicRanked.map(() => [])
    : noLetters !== undefined
      ? null
      : compactLetters(count, isSeparated, MAX_TIE_GROUPS);
  const groups = letters === null ? null : new Set(letters.flat()).size;
  const ranges = refused || noLetters !== undefined ? [] : notSeparatedRanges(count, isSeparated);
  // The models the data cannot tell apart from the leader: always given, letters or not.
  const leaderGroup = refused || count === 0 ? [] : publicRanked.filter((_, i) => i === 0 || separated[i] !== 1);
  const leader = leaderGroup[0];
  const untestedWithLeader = new Set(
    pairs
      .filter((p) => !p.own && p.state === 'UNTESTED' && (p.first === leader || p.second === leader))
      .map((p) => (p.first === leader ? p.second : p.first)),
  );
  return {
    letters,
    ranges,
    groups,
    ...(groups === null && { groups_reason: noLetters ?? TOO_MANY_GROUPS }),
    leader_group: leaderGroup,
    leader_untested: leaderGroup.filter((m) => untestedWithLeader.has(m)),
    untested_pairs: untestedPairs,
  };
}
