/**
 * The capability fabric document (`svc.capability-fabric/0.1`) and its action contract
 * (`svc.capability-action-contract/0.1`), built from the latest rail observations at the time
 * of the request. Pure: observations and the clock are passed in.
 */
import {
  ACTIONS,
  ACTION_PROTOCOLS,
  EXECUTION_DISABLED_REASON,
  type ActionDefinition,
  type ActionProtocol,
  type ViewMode,
} from './actions.js';
import { NO_BINDING, RAILS, type RailDefinition, type RailState } from './rails.js';
import { unprobedObservation, type RailObservation } from './rail-state.js';

export const FABRIC_SCHEMA = 'svc.capability-fabric/0.1';
export const ACTION_CONTRACT_SCHEMA = 'svc.capability-action-contract/0.1';

export interface RailEntry {
  id: string;
  label: string;
  role: string;
  protocol: string;
  endpoint: string | null;
  state: RailState;
  evidence_ref: string | null;
  summary: string;
  /** Whole seconds since the observation; null when nothing was observed. */
  freshness_seconds: number | null;
  last_error: string | null;
  /** When the rail was observed; null when it never was (no endpoint, or the first probe is running). */
  observed_at: string | null;
  writes_board: false;
}

export interface ViewRuntime {
  protocol: ActionProtocol;
  mode: ViewMode;
  binding: string | null;
  evidence_rail_id: string | null;
  state: RailState;
  observed_at: string | null;
  evidence_ref: string | null;
  last_error: string | null;
  execution_observed: false;
}

export interface ActionRuntime {
  state: RailState;
  observed_at: string | null;
  verifier_passed: boolean;
  evidence_rail_id: string;
  evidence_ref: string | null;
  last_error: string | null;
  execution_enabled: false;
  execution_observed: false;
  protocol_views: ViewRuntime[];
}

export interface ActionContract {
  schema: typeof ACTION_CONTRACT_SCHEMA;
  observed_at: string;
  policy: { mode: 'FAIL_CLOSED'; execution_enabled: false; reason: string };
  protocols: readonly ActionProtocol[];
  actions: { definition: ActionDefinition; runtime: ActionRuntime }[];
}

export interface FabricDocument {
  schema: typeof FABRIC_SCHEMA;
  observed_at: string;
  rails: RailEntry[];
  action_contract: ActionContract;
}

export function railEntry(def: RailDefinition, o: RailObservation, now: Date): RailEntry {
  const freshness =
    o.observed_at === null ? null : Math.max(0, Math.floor((now.getTime() - Date.parse(o.observed_at)) / 1000));
  return {
    id: def.id,
    label: def.label,
    role: def.role,
    protocol: def.protocol,
    endpoint: def.endpoint,
    state: o.state,
    evidence_ref: o.evidence_ref,
    summary: o.summary,
    freshness_seconds: freshness,
    last_error: o.last_error,
    observed_at: o.observed_at,
    writes_board: false,
  };
}

function viewRuntime(
  v: ActionDefinition['protocol_views'][number],
  rails: ReadonlyMap<string, RailEntry>,
): ViewRuntime {
  const base = {
    protocol: v.protocol,
    mode: v.mode,
    binding: v.binding,
    evidence_rail_id: v.evidence_rail_id,
    execution_observed: false as const,
  };
  const rail = v.evidence_rail_id === null ? undefined : rails.get(v.evidence_rail_id);
  if (v.mode === 'UNBOUND')
    return { ...base, state: 'UNCHECKABLE', observed_at: null, evidence_ref: null, last_error: NO_BINDING };
  if (rail === undefined)
    return {
      ...base,
      state: 'UNCHECKABLE',
      observed_at: null,
      evidence_ref: null,
      last_error: 'presentation only: no rail observes this view',
    };
  return {
    ...base,
    state: rail.state,
    observed_at: rail.observed_at,
    evidence_ref: rail.evidence_ref,
    last_error: rail.last_error,
  };
}

export function actionRuntime(def: ActionDefinition, rails: ReadonlyMap<string, RailEntry>): ActionRuntime {
  const railId = def.verifier.evidence_rail_id;
  const rail = rails.get(railId);
  if (rail === undefined) throw new Error(`action ${def.id} names an unknown rail ${railId}`);
  const passed = def.verifier.acceptable_states.includes(rail.state);
  return {
    state: rail.state,
    observed_at: rail.observed_at,
    verifier_passed: passed,
    evidence_rail_id: railId,
    evidence_ref: rail.evidence_ref,
    last_error:
      rail.last_error ??
      (passed
        ? null
        : `rail state ${rail.state} is not acceptable (expects ${def.verifier.acceptable_states.join(' or ')})`),
    execution_enabled: false,
    execution_observed: false,
    protocol_views: def.protocol_views.map((v) => viewRuntime(v, rails)),
  };
}

/** The document at `now` from the latest observation of each rail (a rail never observed is said so). */
export function fabricDocument(observations: ReadonlyMap<string, RailObservation>, now: Date): FabricDocument {
  const at = now.toISOString();
  const rails = RAILS.map((def) => railEntry(def, observations.get(def.id) ?? unprobedObservation(def), now));
  const byId = new Map(rails.map((r) => [r.id, r]));
  return {
    schema: FABRIC_SCHEMA,
    observed_at: at,
    rails,
    action_contract: {
      schema: ACTION_CONTRACT_SCHEMA,
      observed_at: at,
      policy: { mode: 'FAIL_CLOSED', execution_enabled: false, reason: EXECUTION_DISABLED_REASON },
      protocols: ACTION_PROTOCOLS,
      actions: ACTIONS.map((definition) => ({ definition, runtime: actionRuntime(definition, byId) })),
    },
  };
}
