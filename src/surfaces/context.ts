/**
 * What the agent surfaces (MCP, A2A, AG-UI) read from: the same served state and options as the
 * HTTP routes, so a tool, a skill and a route answer from one source. Passed in by buildApp.
 */
import type { ServedState } from '../http/served-state.js';
import type { ProductRouteOptions } from '../http/product-routes.js';
import type { KeyResolver } from '../keys/did-resolver.js';

export interface SurfaceContext {
  state: ServedState;
  now: () => Date;
  /** The public origin (GSPC_BASE_URL): absolute links in agent cards and tool results. */
  baseUrl: string;
  /** The metered products (challenges and previews); absent when the app serves no products. */
  products?: ProductRouteOptions;
  /** Resolves receipt/offer keys exactly as POST /api/receipts/verify does. */
  resolveKey: KeyResolver;
  /**
   * Reads one of the service's own GET routes in-process (path and query only, never a URL): how
   * a surface reuses a read document (status documents, catalogue) without a second implementation.
   */
  readRoute: (path: string) => Promise<{ status: number; headers: Record<string, string | number | string[] | undefined>; body: string }>;
}
