/**
 * From what a probe saw to a rail's state (specification, "Capability fabric"; Errors: "MCP
 * probe by the fabric → 403 → UNREACHABLE, last_error 'HTTP 403'"; "rail cannot be observed →
 * UNCHECKABLE"). Pure: the probe (I/O) is done elsewhere and its outcome passed in.
 */
import { NO_ADAPTER, NO_BINDING, NO_ENDPOINT, RAIL_STATES, type RailDefinition, type RailState } from './rails.js';

/** What one same-origin probe saw. */
export type ProbeOutcome =
  /** No answer: connection refused, timeout, redirect (not followed), oversize or unreadable body. */
  | { kind: 'failed'; at: string; error: string }
  | {
      kind: 'answered';
      at: string;
      status: number;
      content_type: string;
      /** Hex SHA-256 of the body bytes read (streams: of nothing read). */
      body_sha256: string;
      /** The parsed body (JSON probes with a 2xx answer). */
      json?: unknown;
      /** Why the body does not meet the rail's output schema; empty when it does. */
      schema_errors: string[];
      /** Extra checks the probe ran (root signature, witness binding), in order. */
      checks: { ok: boolean; detail: string }[];
    };

export interface RailObservation {
  state: RailState;
  observed_at: string | null;
  evidence_ref: string | null;
  summary: string;
  last_error: string | null;
}

const observation = (
  state: RailState,
  at: string | null,
  evidence_ref: string | null,
  summary: string,
  last_error: string | null = null,
): RailObservation => ({ state, observed_at: at, evidence_ref, summary, last_error });

/** The state of a rail with no endpoint, before or without any probe. */
export function unprobedObservation(def: RailDefinition): RailObservation {
  if (def.endpoint === null)
    return observation('UNCHECKABLE', null, null, `${def.label}: nothing to observe`, NO_ENDPOINT);
  return observation(
    'UNCHECKABLE',
    null,
    null,
    `${def.label}: not observed yet (first probe in progress)`,
    'not observed yet',
  );
}

export function railObservation(def: RailDefinition, outcome: ProbeOutcome): RailObservation {
  if (def.endpoint === null || def.probe === null) return unprobedObservation(def);
  const request = `${def.probe.method} ${def.endpoint}`;
  if (outcome.kind === 'failed')
    return observation('UNREACHABLE', outcome.at, null, `${request} did not answer`, outcome.error);
  const ref = `${request} → ${outcome.status}, sha256:${outcome.body_sha256}`;
  const at = outcome.at;
  if (outcome.status < 200 || outcome.status > 299)
    return observation('UNREACHABLE', at, ref, `${request} answered HTTP ${outcome.status}`, `HTTP ${outcome.status}`);
  if (def.probe.expect === 'event-stream' && !outcome.content_type.startsWith('text/event-stream')) {
    return observation(
      'UNCHECKABLE',
      at,
      ref,
      `${request} answered, but not with an event stream`,
      `expected text/event-stream, got ${outcome.content_type || 'no content type'}`,
    );
  }
  if (outcome.schema_errors.length > 0) {
    return observation(
      'UNCHECKABLE',
      at,
      ref,
      `${request} answered without the required output`,
      `output requirement not met: ${outcome.schema_errors.join('; ')}`,
    );
  }
  const failed = outcome.checks.find((c) => !c.ok);
  const body = (outcome.json ?? {}) as Record<string, unknown>;
  switch (def.probe.interpret) {
    case 'catalogued':
      return observation('CATALOGUED', at, ref, `${request}: a catalogue of listings (DISCOVERED, never MEASURED)`);
    case 'signed-root': {
      if (failed) {
        // An unsigned root was still observed at runtime; a signature that fails is not.
        const unsigned = body.sig_ed25519 === null;
        return observation(
          unsigned ? 'RUNTIME_OBSERVED' : 'UNCHECKABLE',
          at,
          ref,
          `${request}: the root ${unsigned ? 'is served unsigned' : 'signature does not verify'}`,
          failed.detail,
        );
      }
      return observation('SIGNED', at, ref, `${request}: ${outcome.checks.map((c) => c.detail).join('; ')}`);
    }
    case 'signed-agent-card': {
      if (failed) {
        const unsigned = !Array.isArray(body.signatures) || body.signatures.length === 0;
        return observation(
          unsigned ? 'RUNTIME_OBSERVED' : 'UNCHECKABLE',
          at,
          ref,
          `${request}: the agent card ${unsigned ? 'is served unsigned' : 'signature does not verify'}`,
          failed.detail,
        );
      }
      return observation('SIGNED', at, ref, `${request}: ${outcome.checks.map((c) => c.detail).join('; ')}`);
    }
    case 'self-reported': {
      const state = body.state;
      if (typeof state !== 'string' || !(RAIL_STATES as readonly string[]).includes(state))
        return observation(
          'UNCHECKABLE',
          at,
          ref,
          `${request} reported no rail state`,
          'the endpoint reported no state',
        );
      const lastError = typeof body.last_error === 'string' ? body.last_error : null;
      return observation(
        state as RailState,
        at,
        ref,
        `${request} reports ${state}${lastError === NO_ADAPTER ? ' (no provider adapter configured)' : ''}`,
        lastError,
      );
    }
    case 'agui-binding': {
      const agui = body.agui as { configured?: unknown } | undefined;
      if (agui?.configured === true)
        return observation('RUNTIME_OBSERVED', at, ref, `${request}: the AG-UI provider wire is configured`);
      return observation('UNCHECKABLE', at, ref, `${request}: the AG-UI provider wire is not configured`, NO_BINDING);
    }
    case 'receipt-chain': {
      const chain = body.chain as { state?: unknown; reason?: unknown; broken_at_seq?: unknown } | undefined;
      if (chain?.state === 'BROKEN')
        return observation(
          'UNCHECKABLE',
          at,
          ref,
          `${request}: the receipt chain is broken`,
          `receipt chain broken at seq ${String(chain.broken_at_seq)}: ${String(chain.reason)}`,
        );
      if (chain?.state === 'UNREAD')
        return observation(
          'UNCHECKABLE',
          at,
          ref,
          `${request}: the receipt ledger could not be read`,
          `receipt chain unread: ${String(chain.reason)}`,
        );
      return observation('RUNTIME_OBSERVED', at, ref, `${request}: receipt chain ${String(chain?.state)}`);
    }
    case 'witness-binds-root':
      if (failed)
        return observation(
          'UNCHECKABLE',
          at,
          ref,
          `${request}: the witness record does not bind the served root`,
          failed.detail,
        );
      return observation('RUNTIME_OBSERVED', at, ref, `${request}: ${outcome.checks.map((c) => c.detail).join('; ')}`);
    default:
      return observation('RUNTIME_OBSERVED', at, ref, `${request} answered with the required output`);
  }
}
