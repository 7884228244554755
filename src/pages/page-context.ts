/** What the pages read: the same served state and in-process route reader as the agent surfaces. */
export type { SurfaceContext as PageContext } from '../surfaces/context.js';
