/**
 * What the agent surfaces and the pages read from: the service context and its documents, read
 * in-process through the registry (never through an HTTP round trip).
 */
import type { ServiceContext } from './context.js';
import type { DocumentReader } from './documents/reader.js';

export interface ReadContext extends ServiceContext {
  documents: DocumentReader;
}
