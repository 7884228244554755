/**
 * The registry of free GET documents: every document the service serves, once. The HTTP layer
 * registers a route per entry (src/web/document-routes.ts), the surfaces and pages read entries
 * in-process (reader.ts), and later work (a static mirror, OpenAPI) iterates the same list.
 * Entries with state of their own (a live read shared for a while, an observation in flight)
 * are made per registry, so two services in one process never share it.
 */
import { actionJobsDoc, oracleFleetDoc } from './ledger-reads.js';
import { boardDocument, evidenceFiles, peritemFiles } from './board.js';
import { catalogueDocuments } from './catalogue.js';
import { computeDocument, providerCanaryDocument } from './compute.js';
import { correctionEntryDocument, correctionsLedgerDocument } from './corrections.js';
import type { DocumentEntry } from './document.js';
import { eastWestDocument } from './east-west.js';
import { cardDocument, evidenceDocuments, logConsistencyDocument } from './evidence.js';
import { logTileDocument } from './log-tiles.js';
import { fabricDocumentEntry } from './fabric.js';
import { dashboardStatsDoc, hubCardsDoc } from './aggregates.js';
import { healthDocument } from './health.js';
import { readinessDocument } from './readiness.js';
import { insurabilityDocument } from './insurability.js';
import { regulationDocument } from './regulation.js';
import { reportedDocument } from './reported.js';
import { changesDocument } from './changes.js';
import { feedDocument } from './feed.js';
import { modelsWithSlicesEntry, slicesDocumentEntry } from './slices.js';
import { usageDocumentEntry } from './usage.js';
import { costDocumentEntry } from './cost.js';
import { windowsDocumentEntry } from './windows.js';
import { itemsDocumentEntry } from './items.js';
import { modelCardsDocumentEntry } from './model-cards.js';
import { cardV0SchemaDocument } from './schemas.js';
import { xrplDocument } from './xrpl.js';

export interface RegistryOptions {
  /** Whether the service sells (the catalogue, quotes and revenue documents exist only then). */
  products: boolean;
  /** Documents a surface owns (the A2A agent card), registered by the composition root. */
  extra?: readonly DocumentEntry[];
}

export function documentRegistry(opts: RegistryOptions): readonly DocumentEntry[] {
  const entries: DocumentEntry[] = [
    boardDocument,
    modelsWithSlicesEntry,
    slicesDocumentEntry,
    usageDocumentEntry,
    costDocumentEntry,
    windowsDocumentEntry,
    itemsDocumentEntry,
    modelCardsDocumentEntry,
    peritemFiles,
    evidenceFiles,
    ...evidenceDocuments,
    cardDocument,
    logConsistencyDocument,
    logTileDocument,
    fabricDocumentEntry,
    hubCardsDoc,
    dashboardStatsDoc,
    correctionsLedgerDocument,
    correctionEntryDocument,
    actionJobsDoc,
    oracleFleetDoc,
    regulationDocument,
    reportedDocument,
    changesDocument,
    feedDocument,
    eastWestDocument,
    insurabilityDocument,
    computeDocument,
    providerCanaryDocument,
    xrplDocument(),
    cardV0SchemaDocument,
    ...(opts.products ? catalogueDocuments() : []),
    healthDocument,
    readinessDocument,
    ...(opts.extra ?? []),
  ];
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.id) || seen.has(e.route))
      throw new Error(`document registry: ${e.id} (${e.route}) is registered twice`);
    seen.add(e.id);
    seen.add(e.route);
  }
  return entries;
}
