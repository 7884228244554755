/**
 * What lm-eval's results file records about the model (issue 40): `config.model_num_parameters`,
 * `model_dtype`, `model_revision` and `model_sha`, which the `hf` model class fills from the
 * weights it loaded. Nothing else of a card is in the file (no organisation, licence or dates), and
 * nothing is read from the model's name. A value lm-eval leaves empty is not recorded.
 */
import type { RecordedCard } from '../../core/board/model-card.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The card fields of a results file's `config` (an object; anything else records nothing). */
export function lmEvalCard(config: unknown): RecordedCard {
  const c = config !== null && typeof config === 'object' ? (config as Record<string, unknown>) : {};
  const card: RecordedCard = {};
  // A count: kept as written (the merge refuses a value that is not a positive whole number).
  if (typeof c.model_num_parameters === 'number') card.parameters = c.model_num_parameters;
  const dtype = str(c.model_dtype);
  if (dtype !== undefined) card.dtype = dtype;
  const revision = str(c.model_revision);
  if (revision !== undefined) card.revision = revision;
  const sha = str(c.model_sha);
  if (sha !== undefined) card.sha = sha;
  return card;
}
