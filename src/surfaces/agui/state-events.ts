/**
 * A state larger than one event may carry, sent as several events each within the budget
 * (issue 39: a board of 150 axes made a 176 kB STATE_SNAPSHOT). AG-UI's own way (1.0 "State
 * Management"): a STATE_SNAPSHOT of the state with its largest members emptied, then STATE_DELTA
 * events whose RFC 6902 `add` operations put the members back in order, each event as full as the
 * budget allows. A client that applies the events in order (as `@ag-ui/client` does) holds the
 * whole state after the last one; until then it holds a prefix of the axes, never a wrong value.
 * A delta larger than the budget is cut the same way, its operations in order.
 */
import { jsonBytes } from '../answer-budget.js';
import { type JsonValue, type PatchOperation, pointerToken } from './json-patch.js';

type JsonObject = { [key: string]: JsonValue };

const isContainer = (v: JsonValue): v is JsonValue[] | JsonObject => typeof v === 'object' && v !== null;

/** The operations in runs of at most `budget` bytes of JSON each (an operation larger than it goes alone). */
export function chunkOperations(ops: readonly PatchOperation[], budget: number): PatchOperation[][] {
  const out: PatchOperation[][] = [];
  let run: PatchOperation[] = [];
  let used = 2;
  for (const op of ops) {
    const size = jsonBytes(op) + 1;
    if (run.length > 0 && used + size > budget) {
      out.push(run);
      run = [];
      used = 2;
    }
    run.push(op);
    used += size;
  }
  if (run.length > 0) out.push(run);
  return out;
}

/**
 * `state` as a snapshot within `budget` bytes and the deltas that complete it: the top-level
 * members are emptied, largest first, until the rest fits; each emptied member is given back
 * element by element (`/axes/-`) or entry by entry (`/tie_groups/<key>`), in its order.
 */
export function splitState(state: JsonObject, budget: number): { snapshot: JsonObject; deltas: PatchOperation[][] } {
  if (jsonBytes(state) <= budget) return { snapshot: state, deltas: [] };
  const snapshot: JsonObject = { ...state };
  const emptied: string[] = [];
  const bySize = Object.entries(state)
    .filter((e): e is [string, JsonValue[] | JsonObject] => isContainer(e[1]))
    .map(([k, v]) => [k, jsonBytes(v)] as const)
    .sort((x, y) => y[1] - x[1]);
  for (const [key] of bySize) {
    if (jsonBytes(snapshot) <= budget) break;
    snapshot[key] = Array.isArray(state[key]) ? [] : {};
    emptied.push(key);
  }
  // Given back in the state's own key order, so the client's object reads as the original.
  const ops: PatchOperation[] = [];
  for (const key of Object.keys(state).filter((k) => emptied.includes(k))) {
    const value = state[key] as JsonValue[] | JsonObject;
    if (Array.isArray(value)) for (const v of value) ops.push({ op: 'add', path: `/${pointerToken(key)}/-`, value: v });
    else
      for (const [k, v] of Object.entries(value))
        ops.push({ op: 'add', path: `/${pointerToken(key)}/${pointerToken(k)}`, value: v });
  }
  return { snapshot, deltas: chunkOperations(ops, budget) };
}
