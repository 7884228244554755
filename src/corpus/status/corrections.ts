/** corrections/: the corrections ledger entries, policy and ledger signature (stub: filled in by issue 5 work). */
import type { StatusRead, StatusReadIo } from './io.js';

export type CorrectionsCorpus = Record<string, unknown>;

export function readCorrections(_io: StatusReadIo): StatusRead<CorrectionsCorpus> {
  return { problems: [] };
}
