/**
 * `status/xrpl-snapshot.json`: a recorded XRPL read, served by `GET /api/xrpl` as
 * RECORDED_SNAPSHOT when no live endpoint is configured (or the live read fails). The file holds
 * the rippled JSON-RPC answers exactly as recorded, with when and from where; they are checked
 * at corpus load by the same parser as a live answer, so a snapshot that would not read live
 * rejects the corpus.
 */
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { z } from 'zod';
import { isoUtc } from '../schemas.js';
import type { CorpusProblem } from '../../core/errors.js';
import { isClassicAddress } from '../../core/status/xrpl-address.js';
import {
  combineRead,
  parseAccountInfo,
  parseAccountLines,
  XRPL_SNAPSHOT_PATH,
  type XrplSnapshotView,
} from '../../core/status/xrpl-assets.js';
import { lineAt, parseJsonFile } from '../json-file.js';
import type { StatusRead, StatusReadIo } from './io.js';

export type XrplSnapshotFile = XrplSnapshotView;

const text = z.string().trim().min(1, 'must be a non-empty string');
const answer = z.record(z.string(), z.unknown(), 'must be the recorded JSON-RPC answer (an object)');

export const xrplSnapshotSchema = z.strictObject({
  /** When the answers were recorded (served as `source.recorded_at`). */
  recorded_at: isoUtc,
  /** Which endpoint answered, described by the operator (never fetched). */
  endpoint: text,
  account: z.string().refine(isClassicAddress, 'must be a classic XRPL address with a valid checksum'),
  /** The rippled `account_lines` answer, as recorded. */
  account_lines: answer,
  /** The rippled `account_info` answer, as recorded; absent: no XRP balance is served. */
  account_info: answer.optional(),
  note: text.optional(),
});

/** Reads and checks the snapshot; absent file: no value and no problem. */
export function readXrplSnapshot(io: StatusReadIo): StatusRead<XrplSnapshotFile> {
  const file = XRPL_SNAPSHOT_PATH;
  if (!io.exists(file)) return { problems: [] };
  const f = io.load(file);
  const source = f.bytes.toString('utf8');
  const parsed = parseJsonFile(file, source, xrplSnapshotSchema);
  if (!parsed.ok) return { problems: parsed.problems };
  const s = parsed.value;
  const problem = (key: string, field: string, reason: string): CorpusProblem => {
    const tree = parseTree(source);
    const path = [key, ...field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
    let node;
    for (let depth = path.length; depth >= 0 && !node; depth--)
      node = tree ? findNodeAtLocation(tree, path.slice(0, depth)) : undefined;
    return { file, ...(node && { line: lineAt(source, node.offset) }), field: `${key}.${field}`, reason };
  };
  const lines = parseAccountLines(s.account_lines, s.account);
  if (!lines.ok) return { problems: [problem('account_lines', lines.field, lines.reason)] };
  let info = null;
  if (s.account_info !== undefined) {
    const i = parseAccountInfo(s.account_info, s.account);
    if (!i.ok) return { problems: [problem('account_info', i.field, i.reason)] };
    info = i.value;
  }
  return {
    value: {
      path: file,
      sha256: f.sha256,
      recorded_at: s.recorded_at,
      endpoint: s.endpoint,
      account: s.account,
      ...(s.note !== undefined && { note: s.note }),
      read: combineRead(info, [lines.value]),
    },
    problems: [],
  };
}
