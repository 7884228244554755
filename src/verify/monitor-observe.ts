/**
 * One view of a board as `gspc monitor` polls it (issue 31): its DID document's keys, its
 * signed checkpoint (checked under the key in force at its size, following logged key
 * transitions), and its log, so nothing but the signature is taken on the server's word. Once
 * the monitor has verified a checkpoint, the log is read by its C2SP tiles (issue 42, MT1-MT6):
 * nothing for an unchanged log, the old size's right edge and the new entries' bundles for a
 * grown one. Otherwise its entries are read whole and every root it compares recomputed; when
 * the view serves an RFC 9162 consistency proof from the size the monitor last verified, that
 * proof must hold too.
 * Every document is read within the view's limits and checked for its shape before use (issue
 * 36): a hostile answer is a `ViewFault` for this view, caught by the caller.
 */
import { logLeaves, logOrigin } from '../core/evidence/card-log.js';
import { MerkleTree } from '../core/evidence/merkle/merkle-tree.js';
import { verifyConsistency } from '../core/evidence/merkle/rfc6962-verify.js';
import type { WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import { BOARD_KEY } from '../core/evidence/signer.js';
import type { AlertKind, SeenCheckpoint, ViewObservation } from '../core/monitor/log-watch.js';
import { keyAtSize } from '../core/verify/key-transitions.js';
import { LogTileReader, type TileReads } from './log-tile-reader.js';
import { verifyCheckpointNote } from '../core/verify/log-proof.js';
import { readDidDocument, readTransitions, walkKeys } from './monitor-did.js';
import { boundedGet, CAP, DEFAULT_LIMITS, entriesCap, expect, parseJson, type BoundedGet } from './monitor-fetch.js';
import { type ServedKeys, servedKeys } from './monitor-keys.js';
import { nodeVerifyCrypto } from './node-crypto.js';
import { judgeWitnessPolicy } from './witness-policy-check.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const HEX64 = /^[0-9a-f]{64}$/;

/** An observation, with what the later judgements need: the DID it names and the keys it serves. */
export interface ObservedView extends ViewObservation {
  /**
   * The signed note and what it was verified from, sent to witnesses as seen: the tree when the
   * log was read whole, none when it was read by its tiles (the proof a witness asks for is then
   * computed from the view's tiles, MT7).
   */
  seen?: { note: string; tree?: MerkleTree };
  /** The DID the view's DID document names, when it could be read. */
  did?: string;
  /** The view's keys and their verified history, when its transitions hold. */
  keys?: ServedKeys;
  /** Where each logged transition sits in the log of `checkpoint` (the state keeps it, MT3). */
  transitionLeaves?: Record<string, number>;
  /** How the log was read this poll (MT1). */
  logRead?: 'tiles' | 'entries.json';
  /** What the tile reader fetched (requests, bytes, paths), when the log was read by its tiles. */
  tileReads?: TileReads;
  /** Proves from the tiles which of `pairs` (other views' checkpoints) are prefixes of this log, before judging. */
  prefixes?(pairs: readonly { size: number; root: string }[], get: BoundedGet): Promise<void>;
}

/** A view that could not be judged, with the alert that says why. */
export const blindView = (
  view: string,
  alert: AlertKind,
  detail: string,
  extra: Partial<ObservedView> = {},
): ObservedView => ({
  view,
  problem: { alert, detail },
  holdsPrefix: () => false,
  ...extra,
});

async function readEntries(get: BoundedGet, size: number): Promise<string[]> {
  const path = '/log/entries.json';
  const bytes = await get(path, entriesCap(size));
  if (bytes === undefined) return [];
  const doc = parseJson(bytes, path) as { entries?: unknown } | null;
  expect(typeof doc === 'object' && doc !== null && Array.isArray(doc.entries), path, 'has no entries list');
  const entries = doc.entries as unknown[];
  expect(
    entries.every((e) => typeof e === 'string' && HEX64.test(e)),
    path,
    'has an entry that is not a SHA-256 (64 hex digits)',
  );
  return entries as string[];
}

/** A growth read through entry bundles at most this large (256 bundles); a larger one reads /log/entries.json (MT1). */
export const MAX_BUNDLED_GROWTH = 65_536;

/** What the monitor knows of the log from its last clean poll, and whether it may read tiles. */
export interface KnownLog {
  /** Transition id → leaf index in the log of `last` (the state's `transition_leaves`). */
  leaves?: Readonly<Record<string, number>>;
}

/** The log as one poll of a view read it: through tiles, or whole. */
type LogRead =
  | { via: 'tiles'; reader: LogTileReader; positions: ReadonlyMap<string, number>; added: readonly Uint8Array[] }
  | { via: 'entries.json'; entries: string[]; positions: ReadonlyMap<string, number> };

/**
 * The log through its tiles when the monitor verified a checkpoint before and knows where its
 * transitions sit: the entries added since, from their bundles (none for an unchanged or smaller
 * log). Undefined when it must be read whole: no earlier checkpoint, a state written before this
 * change, a large growth, or a view that serves no bundle (an older release, a mirror without
 * tiles), which then costs what it always did.
 */
async function readLogByTiles(
  get: BoundedGet,
  last: SeenCheckpoint | undefined,
  known: KnownLog,
  size: number,
): Promise<LogRead | { problem: string } | undefined> {
  if (last === undefined || known.leaves === undefined) return undefined;
  if (!Number.isSafeInteger(size) || size - last.size > MAX_BUNDLED_GROWTH) return undefined;
  const reader = new LogTileReader(get);
  const added = size > last.size ? await reader.entries(last.size, size) : [];
  if (typeof added === 'string') return added.endsWith('is not served') ? undefined : { problem: added };
  // Transitions logged before are where the state says (those of a smaller log below its size);
  // new ones can only be among the entries added since.
  const positions = new Map(Object.entries(known.leaves).filter(([, leaf]) => leaf < size));
  added.forEach((e, i) => {
    const h = hex(e);
    if (!positions.has(h)) positions.set(h, last.size + i);
  });
  return { via: 'tiles', reader, positions, added };
}

/** The leaf of each transition the walk accepted that this log holds (what the state keeps, MT3). */
function leavesOf(ids: readonly string[], positions: ReadonlyMap<string, number>, size: number) {
  const out: Record<string, number> = {};
  for (const id of ids) {
    const leaf = positions.get(id);
    if (leaf !== undefined && leaf < size) out[id] = leaf;
  }
  return out;
}

/** `get`: the view's reader within the poll's limits (by default, the default limits and no budget). */
export async function observeView(
  view: string,
  last: SeenCheckpoint | undefined,
  policy?: { policy: WitnessPolicy; now: Date },
  get: BoundedGet = boundedGet(view, DEFAULT_LIMITS, new AbortController().signal),
  known: KnownLog = {},
): Promise<ObservedView> {
  const read = await readDidDocument(get);
  if (read === undefined) return blindView(view, 'checkpoint_invalid', 'no DID document (/.well-known/did.json)');
  const named = { did: read.did };
  const boardKey = read.current.get(BOARD_KEY);
  if (boardKey === undefined)
    return blindView(view, 'checkpoint_invalid', 'the DID document names no board key', named);
  const transitions = await readTransitions(get);
  const noteBytes = await get('/log/checkpoint', CAP.checkpoint);
  if (noteBytes === undefined) return blindView(view, 'checkpoint_invalid', 'no /log/checkpoint', named);
  const note = noteBytes.toString('utf8');
  const size = Number(note.split('\n')[1]);
  const tiled = await readLogByTiles(get, last, known, size);
  if (tiled !== undefined && 'problem' in tiled)
    return blindView(
      view,
      'tiles_invalid',
      `an entry bundle is not what the log's tiles need: ${tiled.problem}`,
      named,
    );
  let log: LogRead;
  if (tiled !== undefined) log = tiled;
  else {
    const entries = await readEntries(get, size);
    log = { via: 'entries.json', entries, positions: new Map(entries.map((h, i) => [h, i])) };
  }
  const walk = await walkKeys(read, transitions, log.positions);
  if (!walk.ok) return blindView(view, 'checkpoint_invalid', `the key transitions do not hold: ${walk.detail}`, named);
  const withKeys = { ...named, keys: servedKeys(view, read.did, read.methods, walk) };
  const signer = Buffer.from(keyAtSize(walk.epochs.get(BOARD_KEY), size, boardKey), 'base64url');
  const opened = await verifyCheckpointNote(nodeVerifyCrypto, note, logOrigin(read.did), signer);
  if (!opened.ok) return blindView(view, 'checkpoint_invalid', opened.detail, withKeys);
  const checkpoint = { size: opened.size, root: opened.rootHex, boardKey };
  const transitionLeaves = leavesOf(walk.ids, log.positions, opened.size);
  const observation =
    log.via === 'tiles'
      ? await judgedByTiles(view, withKeys, checkpoint, note, last!, log, transitionLeaves)
      : judgedByEntries(view, withKeys, checkpoint, note, log.entries, transitionLeaves);
  if (observation.problem !== undefined) return observation;
  if (policy !== undefined) {
    const quorum = judgeWitnessPolicy(note, policy.policy, policy.now);
    if (!quorum.ok) return { ...observation, problem: { alert: 'witness_quorum', detail: quorum.detail } };
  }
  if (log.via === 'entries.json' && last !== undefined && opened.size > last.size) {
    // The view's own RFC 9162 proof from the size this monitor verified, when it serves one (a
    // static mirror does not: the prefix check against its entries is then the whole check).
    const path = `/log/consistency?from=${last.size}`;
    const bytes = await get(path, CAP.consistency).catch(() => undefined);
    const p = bytes === undefined ? undefined : (parseJson(bytes, path) as { proof?: unknown } | null);
    if (p?.proof !== undefined) {
      const proof = p.proof;
      expect(
        Array.isArray(proof) && proof.every((h) => typeof h === 'string' && HEX64.test(h)),
        path,
        'has a proof that is not a list of hashes',
      );
      const holds = verifyConsistency(
        last.size,
        opened.size,
        proof.map((h) => Buffer.from(h as string, 'hex')),
        Buffer.from(last.root, 'hex'),
        Buffer.from(opened.rootHex, 'hex'),
      ).ok;
      if (!holds)
        return {
          ...observation,
          problem: { alert: 'fork', detail: `its consistency proof from size ${last.size} does not hold` },
        };
    }
  }
  return observation;
}

/** The whole log read: its root recomputed, and every prefix checked against its own tree. */
function judgedByEntries(
  view: string,
  withKeys: Pick<ObservedView, 'did' | 'keys'>,
  checkpoint: SeenCheckpoint,
  note: string,
  entries: string[],
  transitionLeaves: Record<string, number>,
): ObservedView {
  // One tree per view: a prefix is checked with the tree's own RFC 9162 consistency proof from
  // that size (O(log n) once the tree is built), not by hashing the prefix again.
  const tree = new MerkleTree(logLeaves(entries));
  if (checkpoint.size !== entries.length || hex(tree.root()) !== checkpoint.root)
    return blindView(
      view,
      'entries_rewritten',
      `/log/entries.json (${entries.length} entries) does not give the root the checkpoint signs at size ${checkpoint.size}`,
      withKeys,
    );
  return {
    view,
    ...withKeys,
    seen: { note, tree },
    checkpoint,
    transitionLeaves,
    logRead: 'entries.json',
    holdsPrefix: (n, root) =>
      n >= 1 &&
      n <= tree.size &&
      verifyConsistency(n, tree.size, tree.consistencyProof(n), Buffer.from(root, 'hex'), tree.root()).ok,
  };
}

/**
 * The log read through its tiles (MT2): an unchanged log (same size and root) reads no tile; a
 * grown one is proven to extend the checkpoint verified before by the entries its bundles add.
 * When that fails, the tiles alone tell a fork (they give the signed root, and that tree does
 * not extend the one verified before) from tiles or bundles that do not match the checkpoint
 * (`tiles_invalid`). Other prefixes (the other views' sizes) are proven from the tiles by
 * `prefixes` before the poll is judged.
 */
async function judgedByTiles(
  view: string,
  withKeys: Pick<ObservedView, 'did' | 'keys'>,
  checkpoint: SeenCheckpoint,
  note: string,
  last: SeenCheckpoint,
  log: Extract<LogRead, { via: 'tiles' }>,
  transitionLeaves: Record<string, number>,
): Promise<ObservedView> {
  const known = new Map<string, boolean>();
  const key = (n: number, root: string) => `${n} ${root}`;
  known.set(key(checkpoint.size, checkpoint.root), true);
  const root = Buffer.from(checkpoint.root, 'hex');
  const lastRoot = Buffer.from(last.root, 'hex');
  const base: ObservedView = {
    view,
    ...withKeys,
    seen: { note },
    checkpoint,
    transitionLeaves,
    logRead: 'tiles',
    tileReads: log.reader.reads,
    holdsPrefix: (n, r) => known.get(key(n, r)) === true,
    prefixes: async (pairs, get) => {
      const reader = new LogTileReader(get);
      for (const p of pairs)
        if (!known.has(key(p.size, p.root)) && p.size >= 1 && p.size < checkpoint.size) {
          const c = await reader.consistency(p.size, Buffer.from(p.root, 'hex'), checkpoint.size, root);
          known.set(key(p.size, p.root), c.ok);
        }
      log.reader.reads.requests += reader.reads.requests;
      log.reader.reads.bytes += reader.reads.bytes;
      log.reader.reads.paths.push(...reader.reads.paths);
    },
  };
  if (checkpoint.size <= last.size) return base;
  const grew = await log.reader.grew(last.size, lastRoot, checkpoint.size, root, log.added);
  if (grew.ok) {
    known.set(key(last.size, last.root), true);
    return base;
  }
  // Which lie: the tiles' own consistency proof, then the tiles' own root.
  // Tiles that are not the signed log tell nothing of it: the view is judged blind, not forked.
  if ((await log.reader.consistency(last.size, lastRoot, checkpoint.size, root)).ok)
    return blindView(
      view,
      'tiles_invalid',
      `the entry bundles are not the log's new entries: ${grew.detail}`,
      withKeys,
    );
  if ((await log.reader.root(checkpoint.size, root)).ok) {
    known.set(key(last.size, last.root), false);
    return base;
  }
  return blindView(
    view,
    'tiles_invalid',
    `the tiles do not give the root the checkpoint signs: ${grew.detail}`,
    withKeys,
  );
}
