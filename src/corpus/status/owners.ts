/** status/owners.json: the named owners of the insurability pack (stub: filled in by issue 5 work). */
import type { StatusRead, StatusReadIo } from './io.js';

export type OwnersFile = Record<string, unknown>;

export function readOwners(_io: StatusReadIo): StatusRead<OwnersFile> {
  return { problems: [] };
}
