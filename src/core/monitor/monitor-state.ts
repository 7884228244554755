/**
 * The monitor's memory (`<state>/monitor.json`, `svc.monitor-state/1`), read strictly (issue
 * 36): a file that is not JSON, has a field of the wrong type, or a field this version does not
 * know is refused as `monitor_state_invalid`, never half-read. A half-read state is worse than
 * none: `{"last":{"size":"x"}}` once compared as a size and raised a false `fork`. Pure: the
 * caller reads the file and passes its text.
 */
import { GspcError } from '../errors.js';
import type { SeenCheckpoint } from './log-watch.js';

export const STATE_SCHEMA = 'svc.monitor-state/1';

/** One fragment's keys in order, each with the transition that made it current (none for the first). */
export type PinnedChain = { x: string; transition?: string }[];

/**
 * The keys a clean poll verified (issue 36), pinned so that a later poll judges every view, and
 * the DID's host itself, against them: every verification method's key by id (the retired
 * `~<n>` ones and `#identity-root` included), the key transitions in order, and each fragment's
 * chain of keys (what key-anchor.ts walks).
 */
export interface PinnedKeys {
  methods: Record<string, string>;
  transitions: string[];
  chains: Record<string, PinnedChain>;
}

export interface MonitorState {
  schema: typeof STATE_SCHEMA;
  views: string[];
  last?: SeenCheckpoint;
  /** The board's DID, and its log's origin: a state of another board is refused, not compared. */
  did?: string;
  log_origin?: string;
  pinned?: PinnedKeys;
  /** View → SHA-256 over the release documents it served when it last verified in full. */
  documents?: Record<string, string>;
  /**
   * Transition id → its leaf index in the log of `last` (decision MT3): where each logged key
   * transition sits, so a later poll finds only the new ones, in the entries added since.
   */
  transition_leaves?: Record<string, number>;
  checked_at?: string;
}

const HEX64 = /^[0-9a-f]{64}$/;
const X = /^[A-Za-z0-9_-]{43}$/;
const DID_WEB = /^did:web:[A-Za-z0-9.-]+(%3A[0-9]{1,5})?$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `problem` names the field and what it should be; thrown as one line naming the file. */
function check(ok: boolean, problem: string): asserts ok {
  if (!ok) throw new Error(problem);
}

function onlyKeys(o: Obj, where: string, keys: readonly string[]): void {
  const extra = Object.keys(o).find((k) => !keys.includes(k));
  check(extra === undefined, `${where}${extra} is not a field of ${STATE_SCHEMA}`);
}

function record(v: unknown, where: string, value: RegExp, what: string): Record<string, string> {
  check(isObj(v), `${where} is not an object`);
  for (const [k, x] of Object.entries(v))
    check(typeof x === 'string' && value.test(x), `${where}["${k}"] is not ${what}`);
  return v as Record<string, string>;
}

function seen(v: unknown): SeenCheckpoint {
  check(isObj(v), 'last is not an object');
  onlyKeys(v, 'last.', ['size', 'root', 'boardKey']);
  check(Number.isSafeInteger(v.size) && (v.size as number) >= 1, 'last.size is not a whole number from 1');
  check(typeof v.root === 'string' && HEX64.test(v.root), 'last.root is not 64 hex digits');
  check(typeof v.boardKey === 'string' && X.test(v.boardKey), 'last.boardKey is not an Ed25519 JWK x');
  return v as unknown as SeenCheckpoint;
}

function pinned(v: unknown): PinnedKeys {
  check(isObj(v), 'pinned is not an object');
  onlyKeys(v, 'pinned.', ['methods', 'transitions', 'chains']);
  record(v.methods, 'pinned.methods', X, 'an Ed25519 JWK x');
  check(
    Array.isArray(v.transitions) && v.transitions.every((t) => typeof t === 'string' && HEX64.test(t)),
    'pinned.transitions is not a list of transition ids',
  );
  check(isObj(v.chains), 'pinned.chains is not an object');
  for (const [f, chain] of Object.entries(v.chains))
    check(
      Array.isArray(chain) &&
        chain.every(
          (e) =>
            isObj(e) &&
            typeof e.x === 'string' &&
            X.test(e.x) &&
            (e.transition === undefined || (typeof e.transition === 'string' && HEX64.test(e.transition))),
        ),
      `pinned.chains["${f}"] is not a list of {x, transition}`,
    );
  return v as unknown as PinnedKeys;
}

/** transition id → leaf index, each below the size of `last` (a state without `last` has none). */
function leaves(v: unknown, size: number | undefined): void {
  check(isObj(v), 'transition_leaves is not an object');
  for (const [id, leaf] of Object.entries(v))
    check(
      HEX64.test(id) &&
        Number.isSafeInteger(leaf) &&
        (leaf as number) >= 0 &&
        size !== undefined &&
        (leaf as number) < size,
      `transition_leaves["${id}"] is not a leaf index below last.size`,
    );
}

/** The state in `text`, read from `path`; every problem is `monitor_state_invalid` naming the file. */
export function parseMonitorState(text: string, path: string): MonitorState {
  const refuse = (why: string) =>
    new GspcError(
      'monitor_state_invalid',
      `${path} is not a usable monitor state: ${why}. Restore it from a backup, or move it away to start afresh (the monitor then trusts its next clean poll as new)`,
    );
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw refuse(`not JSON (${(e as Error).message})`);
  }
  try {
    check(isObj(v), `not a JSON object`);
    check(v.schema === STATE_SCHEMA, `schema is ${JSON.stringify(v.schema)}, not ${STATE_SCHEMA}`);
    onlyKeys(v, '', [
      'schema',
      'views',
      'last',
      'did',
      'log_origin',
      'pinned',
      'documents',
      'transition_leaves',
      'checked_at',
    ]);
    check(
      v.views === undefined || (Array.isArray(v.views) && v.views.every((u) => typeof u === 'string')),
      'views is not a list of URLs',
    );
    if (v.last !== undefined) seen(v.last);
    check(v.did === undefined || (typeof v.did === 'string' && DID_WEB.test(v.did)), 'did is not a did:web');
    check(v.log_origin === undefined || typeof v.log_origin === 'string', 'log_origin is not a string');
    if (v.pinned !== undefined) pinned(v.pinned);
    if (v.documents !== undefined) record(v.documents, 'documents', HEX64, 'a SHA-256 (64 hex digits)');
    if (v.transition_leaves !== undefined) leaves(v.transition_leaves, (v.last as SeenCheckpoint | undefined)?.size);
    check(v.checked_at === undefined || typeof v.checked_at === 'string', 'checked_at is not a string');
  } catch (e) {
    throw refuse((e as Error).message);
  }
  return { ...(v as unknown as MonitorState), views: (v.views as string[] | undefined) ?? [] };
}

/**
 * A state of another board: it remembers a DID (and so a log origin) that no view names, while
 * the views that answered all name another. Refused (`monitor_state_foreign`), because judging
 * them against it would raise a false rollback or fork, and learning from them would overwrite
 * the other board's memory.
 */
export function foreignState(state: MonitorState, path: string, named: readonly string[]): GspcError | undefined {
  if (state.did === undefined || named.length === 0 || named.includes(state.did)) return undefined;
  const theirs = [...new Set(named)].join(', ');
  return new GspcError(
    'monitor_state_foreign',
    `${path} belongs to another board: it remembers ${state.did} (log ${state.log_origin ?? '?'}), and these views name ${theirs}. Give this board its own --state directory`,
  );
}
