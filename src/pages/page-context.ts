/** What the pages read from: the same context as the agent surfaces (src/serve/read-context.ts). */
export type { ReadContext as PageContext } from '../serve/read-context.js';
