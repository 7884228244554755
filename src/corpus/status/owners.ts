/**
 * `status/owners.json`: the named owners of the insurability evidence pack (specification,
 * "Insurability evidence pack": measurement director and a contact address; "Limits": right of
 * reply 14 days through that contact). Optional: absent, the pack says so with nulls and the
 * reason. The signing key id is not typed here: the pack reads it from the live board signer,
 * and professional indemnity is always `UNVERIFIED`. Fields: docs/drafts/read-documents.md.
 */
import { z } from 'zod';
import type { OwnersFile as CoreOwnersFile } from '../../core/status/insurability-pack.js';
import { parseJsonFile } from '../json-file.js';
import type { StatusRead, StatusReadIo } from './io.js';

export type OwnersFile = CoreOwnersFile;

export const OWNERS_FILE = 'status/owners.json';

const text = z.string().trim().min(1, 'must be a non-empty string');
// A plain addr-spec: local part without spaces or specials, a dotted domain of LDH labels.
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export const ownersFileSchema = z.strictObject({
  measurement_director: text,
  contact: z
    .string()
    .regex(EMAIL, 'must be an e-mail address (local@domain.tld)')
    .refine(
      (s) => !s.startsWith('.') && !s.split('@')[0]!.endsWith('.') && !s.includes('..'),
      'must be an e-mail address without empty dot-separated parts',
    ),
  note: text.optional(),
});

export function readOwners(io: StatusReadIo): StatusRead<OwnersFile> {
  if (!io.exists(OWNERS_FILE)) return { problems: [] };
  const parsed = parseJsonFile(OWNERS_FILE, io.load(OWNERS_FILE).bytes.toString('utf8'), ownersFileSchema);
  return parsed.ok ? { value: parsed.value as OwnersFile, problems: [] } : { problems: parsed.problems };
}
