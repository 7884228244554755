/**
 * What the agent surfaces (MCP, A2A, AG-UI) read from: the service context and its registered
 * documents, read in-process (src/serve/documents/reader.ts), so a tool, a skill and a route
 * answer from one source with no HTTP round trip.
 */
export type { ReadContext as SurfaceContext } from '../serve/read-context.js';
