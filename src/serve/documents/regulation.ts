/**
 * `GET /api/regulation`: the regulation deadline feed (`svc.regulation-feed/0.1`; specification,
 * "Versioning" §5 and the capability action `svc.regulation.deadlines.read`, which requires
 * `schema` and `deadlines`). Built per request because `days_until` and the reverification state
 * depend on the clock: `cache-control: no-store`. Without a corpus file: 200 with null blocks
 * and the reason.
 */
import { regulationFeed } from '../../core/status/regulation-feed.js';
import { built, type DocumentEntry } from './document.js';

export const regulationDocument: DocumentEntry<ReturnType<typeof regulationFeed>> = {
  id: 'regulation',
  route: '/api/regulation',
  query: [],
  schema: 'svc.regulation-feed/0.1',
  cache: { kind: 'request', cacheControl: 'no-store' },
  paths: () => ['/api/regulation'],
  read: (ctx) => built(regulationFeed(ctx.state.current().release.corpus.status.regulation, ctx.now()), 'no-store'),
};
