/** `GET /healthz`: the release being served; answered while the process serves at all. */
import { built, type DocumentEntry } from './document.js';

export const healthDocument: DocumentEntry<{ status: 'ok'; release: string; as_of: string }> = {
  id: 'health',
  route: '/healthz',
  query: null,
  schema: null,
  cache: { kind: 'request', cacheControl: null },
  paths: () => ['/healthz'],
  read: (ctx) => {
    const r = ctx.state.current().release;
    return built({ status: 'ok', release: r.id, as_of: r.descriptor.as_of }, null);
  },
};
