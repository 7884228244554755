/**
 * `GET /api/model-cards` (`svc.gspc-model-cards/0.1`, issue 40): every model measured on a
 * model-comparison axis of the served release, with what the corpus's `models.json` states about
 * it (src/core/board/model-card.ts). Keyless and read-only; built once per served release and
 * served as prepared bytes, so it is mirrored by `gspc export static` like the board. A card's
 * URL is stored and shown, never fetched.
 */
import { modelCardsDocument, MODEL_CARDS_SCHEMA, type ModelCardsDocument } from '../../core/board/model-card.js';
import { MODEL_CARDS_PATH, measuredModels } from '../../corpus/model-cards.js';
import { JSON_TYPE } from '../headers.js';
import { CACHE_CONTROL, prepare } from '../prepared-bytes.js';
import type { PreparedRelease } from '../prepared.js';
import { perRelease, prepared, type DocumentEntry } from './document.js';

/** The document of a served release (also for the pages, which read the entry in-process). */
export const modelCardsOf = (p: PreparedRelease): ModelCardsDocument => {
  const { corpus } = p.release;
  const file = corpus.files.find((f) => f.path === MODEL_CARDS_PATH);
  return modelCardsDocument(
    corpus.meta.as_of,
    measuredModels(corpus.definitions, corpus.tables),
    corpus.modelCards,
    file === undefined ? null : { url: `/peritem/${MODEL_CARDS_PATH}`, sha256: file.sha256 },
  );
};

const bytesOf = perRelease((p: PreparedRelease) => prepare(Buffer.from(JSON.stringify(modelCardsOf(p))), JSON_TYPE));

export const modelCardsDocumentEntry: DocumentEntry<ModelCardsDocument> = {
  id: 'model-cards',
  route: '/api/model-cards',
  query: [],
  schema: MODEL_CARDS_SCHEMA,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: () => ['/api/model-cards'],
  read: (ctx) => prepared(bytesOf(ctx.state.current())),
};
