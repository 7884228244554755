/**
 * What an Every Eval Ever aggregate record says about its model (issue 40): `model_info.developer`
 * (the schema: "Name of organization that provides the model") is the card's organisation, and
 * `additional_details.model_availability` `open_weights` / `closed_weights` is `open_weights`
 * true / false (`unknown` records nothing). The developer is taken only when the record states
 * it, never from the `<developer>/<name>` shape of the id. `inference_platform` and
 * `inference_engine` say how the model was run, not who it is: they are not card fields.
 * A record `gspc export eee` wrote (`eval_library.name` `gspc`) gives no organisation: that
 * exporter splits the id at its first `/` to fill the schema's developer, which is a guess.
 */
import type { RecordedCard } from '../../core/board/model-card.js';
import type { EeeAggregate } from './eee-records.js';

export function eeeCard(record: EeeAggregate): RecordedCard {
  const info = record.model_info;
  const card: RecordedCard = {};
  if (record.eval_library.name !== 'gspc' && typeof info.developer === 'string' && info.developer !== '')
    card.organisation = info.developer;
  const availability = info.additional_details?.model_availability;
  if (availability === 'open_weights') card.open_weights = true;
  else if (availability === 'closed_weights') card.open_weights = false;
  return card;
}
