/**
 * `status/east-west.json`: the two model groups of the east-west bench (served at
 * `/api/east-west-bench`) and the stated basis of the grouping. Optional. Each group lists at
 * least one model id, once; no model is in both. Fields: docs/drafts/read-documents.md.
 */
import { z } from 'zod';
import { modelIdSchema } from '../model-id.js';
import type { EastWestFile as CoreEastWestFile } from '../../core/status/east-west-bench.js';
import { parseJsonFile } from '../json-file.js';
import type { StatusRead, StatusReadIo } from './io.js';

export type EastWestFile = CoreEastWestFile;

export const EAST_WEST_FILE = 'status/east-west.json';

const text = z.string().trim().min(1, 'must be a non-empty string');
const modelId = modelIdSchema;
const group = z
  .array(modelId)
  .min(1, 'must list at least one model')
  .refine((g) => new Set(g).size === g.length, 'lists a model twice');

export const eastWestFileSchema = z.strictObject({
  groups: z
    .strictObject({ east: group, west: group })
    .refine((g) => !g.east.some((m) => g.west.includes(m)), 'a model is in both groups'),
  basis: text,
  note: text.optional(),
});

export function readEastWest(io: StatusReadIo): StatusRead<EastWestFile> {
  if (!io.exists(EAST_WEST_FILE)) return { problems: [] };
  const parsed = parseJsonFile(EAST_WEST_FILE, io.load(EAST_WEST_FILE).bytes.toString('utf8'), eastWestFileSchema);
  return parsed.ok ? { value: parsed.value as EastWestFile, problems: [] } : { problems: parsed.problems };
}
