/**
 * What a skill answer is made of, and the one way a skill reads the service: a GET of one of
 * its registered documents in-process (`ctx.documents`), or the verification of `POST /api/verify` for
 * card-verification. The documents are passed on verbatim in data parts; the text only
 * summarises them (numbers rounded for reading, exact in the data).
 */
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { SurfaceContext } from '../context.js';
import type { CardSignatureState } from './agent-card.js';
import type { RoutedMessage, SkillId } from './skills.js';

/** One data part: a served document and the request that served it. */
export interface AnswerPart {
  value: unknown;
  source: string;
}

export interface SkillAnswer {
  skill: SkillId | null;
  text: string;
  data: AnswerPart[];
}

export interface AnswerDeps {
  ctx: SurfaceContext;
  /** `POST /api/verify` with `body`, in-process (the route itself, so the verdict is the same). */
  verifyCards: (body: unknown) => Promise<{ status: number; body: string }>;
  /** Whether the agent card now served is signed, and under which key or why not. */
  cardSignature: () => CardSignatureState;
}

/** A skill: reads the documents it names and words them. */
export type SkillAnswerer = (msg: RoutedMessage, deps: AnswerDeps) => Promise<SkillAnswer>;

/** A route's answer: status, parsed JSON body, and the request that served it. */
export interface Read {
  status: number;
  json: Record<string, unknown>;
  source: string;
}

/**
 * GETs one of the service's routes. A 2xx or 4xx answer is returned for the skill to word (a
 * 404 is an answer: "no such card"); a 5xx or a body that is not JSON throws, and the SDK
 * answers -32603 Internal error.
 */
export async function read(deps: AnswerDeps, path: string): Promise<Read> {
  const r = await deps.ctx.documents.readPath(path);
  if (r.status >= 500) throw new Error(`GET ${path} answered HTTP ${r.status}`);
  return { status: r.status, json: r.value, source: `GET ${path}` };
}

/** A 400 from a route means the caller's input was malformed: -32602 with the route's words. */
export function malformed(skill: SkillId, status: number, body: Record<string, unknown>): never {
  throw new RequestMalformedError(
    `${skill}: ${typeof body.error === 'string' ? body.error : `the request was refused (HTTP ${status})`}`,
  );
}

/** A number for reading: three decimals (the exact value is in the data part). */
export function fmt(x: unknown): string {
  return typeof x === 'number' && Number.isFinite(x) ? String(Number(x.toFixed(3))) : String(x);
}

/** A p-value for reading: three significant digits. */
export function fmtP(x: unknown): string {
  return typeof x === 'number' && Number.isFinite(x) ? x.toPrecision(3) : String(x);
}

/** A scalar as text, or `fallback` when absent or empty. */
export const str = (x: unknown, fallback = '?'): string =>
  typeof x === 'string' && x !== '' ? x : typeof x === 'number' || typeof x === 'boolean' ? String(x) : fallback;

/** The objects of an array, or none when it is not an array. */
export const list = (x: unknown): Record<string, unknown>[] =>
  Array.isArray(x) ? x.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object') : [];

/** One board row in words: status, n, accuracy with its interval, leader, separation. */
export function axisLine(row: Record<string, unknown>): string {
  const parts = [`${str(row.axis)} (${str(row.title)}): ${str(row.status)}, n = ${str(row.n)}`];
  if (typeof row.accuracy === 'number') {
    const iv = Array.isArray(row.interval) ? ` (Wilson 95% [${fmt(row.interval[0])}, ${fmt(row.interval[1])}])` : '';
    parts.push(`accuracy ${fmt(row.accuracy)}${iv}`);
  }
  if (typeof row.leader === 'string') parts.push(`leader ${row.leader}`);
  if (typeof row.separation === 'string')
    parts.push(
      `separation ${row.separation}${typeof row.separation_p === 'number' ? ` (exact McNemar p = ${fmtP(row.separation_p)})` : ''}`,
    );
  if (typeof row.quotable === 'boolean') parts.push(row.quotable ? 'quotable' : 'not quotable');
  return parts.join(', ');
}
