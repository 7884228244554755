/**
 * `GET /schemas/card-v0/<name>.json`: the JSON Schemas the `schema` field of the service's
 * card-v0 records (commission receipts, bundle manifests) names, so that it resolves at the
 * origin the record came from (src/core/evidence/card-v0-schemas.ts).
 */
import { CARD_V0_SCHEMAS } from '../../core/evidence/card-v0-schemas.js';
import { GspcError } from '../../core/errors.js';
import { CACHE_CONTROL, prepare } from '../prepared-bytes.js';
import { prepared, type DocumentEntry } from './document.js';

const PREFIX = '/schemas/card-v0/';
const files = new Map(
  Object.entries(CARD_V0_SCHEMAS).map(([path, schema]) => [
    path,
    prepare(Buffer.from(`${JSON.stringify(schema, null, 2)}\n`), 'application/schema+json'),
  ]),
);

export const cardV0SchemaDocument: DocumentEntry = {
  id: 'card-v0-schema',
  route: `${PREFIX}:file`,
  query: null,
  schema: null,
  cache: { kind: 'release', cacheControl: CACHE_CONTROL },
  paths: () => [...files.keys()],
  read: (_ctx, req) => {
    const f = files.get(req.path);
    if (!f)
      throw new GspcError('not_found', `no schema at ${req.path}; the schemas are ${[...files.keys()].join(', ')}`);
    return prepared(f);
  },
};
