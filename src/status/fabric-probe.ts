/**
 * One same-origin probe of a capability rail (specification, "Capability fabric": the service
 * probes its own endpoints, `timeout_ms` 3500, egress SAME_ORIGIN_ONLY). The URL is always the
 * configured origin plus the rail's fixed path, never anything from a request; redirects are
 * not followed (they could leave the origin). The outcome goes to core/fabric/rail-state.ts.
 */
import { createHash } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020.js';
import type { RailDefinition } from '../core/fabric/rails.js';
import type { ProbeOutcome } from '../core/fabric/rail-state.js';
import { keysOfDidDocument } from '../core/verify/card-verifier.js';
import { verifyRootRecord } from '../core/verify/root-verifier.js';
import { verifyAgentCard } from '../core/verify/agent-card-signature.js';
import { nodeVerifyCrypto } from '../verify/node-crypto.js';
import { fetchFailure, readCapped, sameOriginUrl } from './bounded-fetch.js';

/** The body a probe reads at most; the board with every axis is far below this. */
export const PROBE_MAX_BYTES = 8 * 1024 * 1024;

export type ProbeFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface ProbeOptions {
  /** The only origin probed, e.g. `https://board.example.org`. */
  origin: string;
  timeoutMs: number;
  fetch: ProbeFetch;
  now: () => Date;
}

const ajv = new Ajv2020.default({ allErrors: true, strict: false });
const validators = new Map<RailDefinition, ReturnType<typeof ajv.compile>>();

function schemaErrors(def: RailDefinition, json: unknown): string[] {
  const schema = def.probe?.output_schema;
  if (schema === undefined) return [];
  let validate = validators.get(def);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    validators.set(def, validate);
  }
  if (validate(json)) return [];
  return (validate.errors ?? []).map((e: { instancePath: string; message?: string }) =>
    `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}`.trim(),
  );
}

interface Fetched {
  status: number;
  contentType: string;
  bytes: Buffer;
}

async function fetchSameOrigin(
  o: ProbeOptions,
  path: string,
  init: RequestInit,
  readBody: boolean,
  signal: AbortSignal,
): Promise<Fetched> {
  const res = await o.fetch(sameOriginUrl(o.origin, path), { ...init, redirect: 'manual', signal });
  const contentType = res.headers.get('content-type') ?? '';
  if (!readBody || res.status < 200 || res.status > 299) {
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status, contentType, bytes: Buffer.alloc(0) };
  }
  return { status: res.status, contentType, bytes: await readCapped(res, PROBE_MAX_BYTES) };
}

/** Probes one rail. Never throws: every failure is an outcome. */
export async function probeRail(def: RailDefinition, o: ProbeOptions): Promise<ProbeOutcome> {
  const probe = def.probe;
  const at = () => o.now().toISOString();
  if (def.endpoint === null || probe === null) return { kind: 'failed', at: at(), error: 'no endpoint' };
  // One deadline for the whole observation, follow-up reads (DID document, root) included.
  const signal = AbortSignal.timeout(o.timeoutMs);
  try {
    const init: RequestInit = {
      method: probe.method,
      headers: { 'user-agent': 'gspc-board-fabric-probe', ...probe.headers },
    };
    if (probe.body !== undefined) init.body = JSON.stringify(probe.body);
    const r = await fetchSameOrigin(o, def.endpoint, init, probe.expect === 'json', signal);
    const base = {
      kind: 'answered' as const,
      at: at(),
      status: r.status,
      content_type: r.contentType,
      body_sha256: createHash('sha256').update(r.bytes).digest('hex'),
    };
    if (r.status < 200 || r.status > 299 || probe.expect !== 'json') return { ...base, schema_errors: [], checks: [] };
    let json: unknown;
    try {
      json = JSON.parse(r.bytes.toString('utf8'));
    } catch {
      return { ...base, schema_errors: ['the body is not JSON'], checks: [] };
    }
    const errors = schemaErrors(def, json);
    const checks = errors.length > 0 ? [] : await extraChecks(def, json, o, signal);
    return { ...base, json, schema_errors: errors, checks };
  } catch (err) {
    return { kind: 'failed', at: at(), error: fetchFailure(err, o.timeoutMs) };
  }
}

async function extraChecks(
  def: RailDefinition,
  json: unknown,
  o: ProbeOptions,
  signal: AbortSignal,
): Promise<{ ok: boolean; detail: string }[]> {
  const get = (path: string) => fetchSameOrigin(o, path, { method: 'GET' }, true, signal);
  if (def.probe?.interpret === 'signed-root') {
    const did = await get('/.well-known/did.json');
    if (did.status !== 200) return [{ ok: false, detail: `the DID document answered HTTP ${did.status}` }];
    const keys = keysOfDidDocument(JSON.parse(did.bytes.toString('utf8')));
    const check = await verifyRootRecord(json, keys, nodeVerifyCrypto);
    return [{ ok: check.ok, detail: check.detail }];
  }
  if (def.probe?.interpret === 'signed-agent-card') {
    const did = await get('/.well-known/did.json');
    if (did.status !== 200) return [{ ok: false, detail: `the DID document answered HTTP ${did.status}` }];
    const check = verifyAgentCard(json, JSON.parse(did.bytes.toString('utf8')));
    return [{ ok: check.ok, detail: check.detail }];
  }
  if (def.probe?.interpret === 'witness-binds-root') {
    const root = await get('/root.json');
    if (root.status !== 200) return [{ ok: false, detail: `/root.json answered HTTP ${root.status}` }];
    const sha = createHash('sha256').update(root.bytes).digest('hex');
    const named = (json as { root_sha256?: unknown }).root_sha256;
    return [
      named === sha
        ? { ok: true, detail: `the witness record binds the served root bytes (sha256:${sha})` }
        : {
            ok: false,
            detail: `the witness record names root sha256:${String(named)}, the served /root.json is sha256:${sha}`,
          },
    ];
  }
  return [];
}
