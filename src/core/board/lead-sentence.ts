/**
 * The size of a lead in words a non-statistician can read (issues 29 and 39), from a pair of the
 * every-model document: "demo/atlas-70b leads demo/borealis-34b by 13.5 points (95% interval 7.8
 * to 19.1): 80.5% against 67.0% on the 400 items both answered (SEPARATED after Holm over 6
 * pairs); a gap smaller than 8.3 points could not have been seen with 80% power at this n." It
 * names both accuracies on the shared items (what the difference is a difference of), says plainly
 * when too few items differ for any test to separate the two, gives the MDD only where the
 * document does, and explains in one line a board SEPARATED beside a TIE here. Used by the page,
 * the MCP tool and the A2A skill alike, so all three say the same.
 */
import { MIN_DISCORDANT_TO_SEPARATE } from '../stats/mcnemar.js';
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

/** `1 item`, `400 items`. */
/** `1 pair`, `79,800 pairs`: the count with thousands separators, the word in the right number. */
export const plural = (k: number, word: string) => `${k.toLocaleString('en')} ${word}${k === 1 ? '' : 's'}`;
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const pText = (p: number) => (p < 0.001 ? p.toExponential(1) : p.toFixed(3));

/** What the board's row says of its leader and basis: its separation and exact McNemar p. */
export interface BoardSeparation {
  separation?: string;
  separation_p?: number;
}

/** The lead in words, and a line reconciling it with the board's own separation when they differ. */
export interface Lead {
  sentence: string;
  /** Set when the board's SEPARATED/TIE and this pair's state differ: why, in one line. */
  reconcile?: string;
  /** Set when the two models' run settings cannot be compared (docs/methodology.md §12): what the lead assumes. */
  settings?: string;
}

/** What a tested pair assumes when its run settings cannot be compared; undefined when nothing was recorded or they are alike. */
function settingsCaveat(p: PairEntry): { settings?: string } {
  if (p.like_for_like !== null || p.settings_unknown === undefined) return {};
  const which =
    p.settings_unknown.length > 0
      ? `${p.settings_unknown.join(', ')} recorded for one of them only`
      : 'one has none recorded';
  return { settings: `Their run settings cannot be compared (${which}): this assumes they were run alike.` };
}

export function lead(
  doc: ModelsDocument,
  leader: string,
  basis: string,
  board: BoardSeparation = {},
): Lead | undefined {
  const p = pairOf(doc, leader, basis);
  // Run with settings that change the task: said, never compared (decision RS4).
  if (p?.like_for_like === false && p.reason?.startsWith('not like for like'))
    return { sentence: `N${p.reason.slice(1)}.` };
  if (!p || p.state === 'UNTESTED' || p.difference === undefined || p.difference_interval === undefined)
    return undefined;
  const n = p.n_pairs!;
  const disc = p.b! + p.c!;
  const [first, second] = [pct((p.a! + p.b!) / n), pct((p.a! + p.c!) / n)];
  if (disc < MIN_DISCORDANT_TO_SEPARATE)
    return {
      sentence:
        `${leader} and ${basis} both answered ${plural(n, 'item')}; ` +
        `on ${n === 1 ? 'it' : 'them'} ${leader} scored ${first} and ${basis} ${second}, and they differ on ` +
        `${disc === 0 ? 'none' : `only ${disc}`}: too few to say which is better ` +
        `(no test can separate two models on fewer than ${MIN_DISCORDANT_TO_SEPARATE} items where they differ).`,
      ...settingsCaveat(p),
    };
  const [lo, hi] = p.difference_interval;
  // Equal accuracies on the shared items: neither leads (it said "leads … by 0.0 points").
  const verb = p.difference > 0 ? 'leads' : p.difference < 0 ? 'trails' : 'is level with';
  const tested =
    p.p_holm === null
      ? `${p.state}, unadjusted: an own model is outside the Holm family`
      : `${p.state} after Holm over ${plural(doc.m, 'pair')}`;
  const seen =
    p.mdd != null
      ? `a gap smaller than ${points(p.mdd)} points could not have been seen with 80% power at this n`
      : `with ${plural(disc, 'item')} where they differ (fewer than 20), what gap this n could have seen is not estimated`;
  const sentence =
    `${leader} ${verb} ${basis}${p.difference === 0 ? '' : ` by ${points(Math.abs(p.difference))} points`} (95% interval ${points(lo)} to ${points(hi)}): ` +
    `${first} against ${second} on the ${plural(n, 'item')} both answered (${tested}); ${seen}.`;
  return { sentence, ...reconciled(doc, p, board), ...settingsCaveat(p) };
}

/** One line when the board's state and this pair's differ (they test different things). */
function reconciled(doc: ModelsDocument, p: PairEntry, board: BoardSeparation): { reconcile?: string } {
  const b = board.separation;
  if ((b !== 'SEPARATED' && b !== 'TIE') || (p.state !== 'SEPARATED' && p.state !== 'TIE') || b === p.state) return {};
  const boardP = board.separation_p === undefined ? '' : ` (p = ${pText(board.separation_p)})`;
  if (b === 'SEPARATED')
    return {
      reconcile:
        `The board reads SEPARATED because it tests its leader against the best base model alone, unadjusted${boardP}; ` +
        `here every pair of public models is tested and corrected with Holm over ${plural(doc.m, 'pair')}${p.p_holm == null ? '' : ` (p_holm = ${pText(p.p_holm)})`}, which this pair does not pass.`,
    };
  return {
    reconcile: `The board reads TIE because it asks whether its leader is better than the best base model${boardP}; here ${p.better ?? 'the other model'} is the better of the two.`,
  };
}

/** The lead and its reconciling line as one text (the MCP tool's and the A2A skill's). */
export function leadSentence(
  doc: ModelsDocument,
  leader: string,
  basis: string,
  board: BoardSeparation = {},
): string | undefined {
  const l = lead(doc, leader, basis, board);
  return l && [l.sentence, l.reconcile, l.settings].filter((x) => x !== undefined).join(' ');
}

/** Pairs named in {@link likeForLikeWords}. */
const UNLIKE_NAMED = 6;

/**
 * The pairs run unalike, in words, bounded: those never compared because a setting that changes
 * the task differs, and how many could not be compared (docs/methodology.md §12). Empty when no
 * model of the axis has recorded settings (every pair's `like_for_like` null without a list).
 */
export function likeForLikeWords(doc: ModelsDocument): string {
  const unlike = doc.pairs.filter((p) => p.like_for_like === false);
  const unknown = doc.pairs.filter((p) => p.like_for_like === null && p.settings_unknown !== undefined).length;
  const out: string[] = [];
  if (unlike.length > 0) {
    const named = unlike
      .slice(0, UNLIKE_NAMED)
      .map((p) => `${p.first} vs ${p.second} (${(p.settings_differ ?? []).join(', ')})`);
    const more = unlike.length - named.length;
    out.push(
      `Not like for like: ${plural(unlike.length, 'pair')} run with settings that change the task ${unlike.length === 1 ? 'is' : 'are'} not compared (UNTESTED, outside the Holm family): ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`,
    );
  }
  if (unknown > 0)
    out.push(
      `The run settings of ${plural(unknown, 'pair')} cannot be compared (recorded for one model only): ${unknown === 1 ? 'it is' : 'they are'} tested as if run alike (like_for_like null).`,
    );
  return out.join(' ');
}

/** The public models by tie-group label, in the document's order: `{a: [m1], b: [m2, m3], …, aa: […]}`. */
export function tieGroups(doc: ModelsDocument): Record<string, string[]> {
  const groups: Record<string, string[]> = {};
  for (const m of doc.models) if (!m.own) for (const l of m.tie_groups ?? []) (groups[l] ??= []).push(m.model);
  return groups;
}

/** `a: m1; b: m2, m3`: the public models by tie-group letter. */
export function tieGroupsText(doc: ModelsDocument): string {
  return Object.entries(tieGroups(doc))
    .map(([l, ms]) => `${l}: ${ms.join(', ')}`)
    .join('; ');
}
