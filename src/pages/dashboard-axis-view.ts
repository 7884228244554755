/**
 * What an axis page shows of its `/api/models` document, so the page stays light at any number of
 * models (issue 39: at 200 models the page was 23 MB, a 19,900-row pairs table and a 40,000-cell
 * heat map, 20 s to render). Up to {@link PLOT_MODELS} models everything is shown, as before;
 * past that the plots and the pairs table show the first {@link PLOT_MODELS} models by rank and
 * the pairs among them, the models table the first {@link TABLE_MODELS} (and every own model),
 * and the page links the whole document. Which models the data cannot tell apart from the leader
 * is always stated in full (`leader_group`), up to {@link GROUP_NAMES} names.
 */
import type { ModelEntry, ModelsDocument, PairEntry } from '../core/board/models-document.js';

/** Models drawn in the forest plot and the heat map, and whose pairs the pairs table lists. */
export const PLOT_MODELS = 25;
/** Rows of the models table (own models come in addition when they rank below). */
export const TABLE_MODELS = 100;
/** Names of the leader's group printed on the page (the rest are counted and linked). */
export const GROUP_NAMES = 50;

export interface AxisView {
  /** The models the plots show (the first PLOT_MODELS in the document's order). */
  plotted: ModelEntry[];
  /** The pairs among the plotted models, in the document's order (all pairs when none is left out). */
  pairs: PairEntry[];
  /** The models table's rows, in the document's order. */
  tabled: ModelEntry[];
  /** Whether anything is left out (then the page says what and links the document). */
  cut: boolean;
}

/**
 * `keep`: the model filter's (issue 40; model-filter.ts): only the models it keeps are shown,
 * with the ranks, groups and separations of the whole axis.
 */
export function axisView(doc: ModelsDocument, keep?: (m: ModelEntry) => boolean): AxisView {
  if (doc.models.length <= PLOT_MODELS && keep === undefined)
    return { plotted: doc.models, pairs: doc.pairs, tabled: doc.models, cut: false };
  const models = keep === undefined ? doc.models : doc.models.filter(keep);
  const plotted = models.slice(0, PLOT_MODELS);
  const shown = new Set(plotted.map((m) => m.model));
  if (models.length <= PLOT_MODELS)
    return {
      plotted,
      pairs: doc.pairs.filter((p) => shown.has(p.first) && shown.has(p.second)),
      tabled: models,
      cut: false,
    };
  const tabled = models.filter((m, i) => i < TABLE_MODELS || m.own);
  return {
    plotted,
    pairs: doc.pairs.filter((p) => shown.has(p.first) && shown.has(p.second)),
    tabled,
    cut: true,
  };
}
