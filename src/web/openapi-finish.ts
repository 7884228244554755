/**
 * From what @fastify/swagger generates to the served `/openapi.json` (issue 28: third-party
 * tools must accept it, and it must describe every real answer):
 * - `servers` names the public origin, and `security: []` says no operation needs a credential;
 * - the operations of routes that are not registry documents come from `OPERATIONS`;
 * - a wildcard route (`/peritem/*`, `/evidence/*`), which no OpenAPI path can express, becomes
 *   one path per directory of the served release's files (`/peritem/axes/{file}`), so that a
 *   validator can route every file the release publishes;
 * - every operation gets an `operationId` from its method and path, and a 304 has no content.
 * Built once per served release (the wildcard paths follow its files).
 */
import type { PreparedRelease } from '../serve/prepared.js';
import type { DocumentEntry } from '../serve/documents/document.js';
import { OPERATIONS } from './openapi-operations.js';

type Json = Record<string, unknown>;
type Operation = Json & { parameters?: Json[]; responses?: Record<string, Json> };
export interface OpenApiDocument extends Json {
  paths: Record<string, Record<string, Operation>>;
}

/** `GET /peritem/axes/{file}` → `getPeritemAxesFile` (camelCase of the method and the path's words). */
function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/[{}]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** The directory templates of a wildcard entry's concrete paths: `/peritem/axes/{file}`, … */
function directoryTemplates(entry: DocumentEntry, current: PreparedRelease): string[] {
  const dirs = new Set(entry.paths(current).map((p) => p.slice(0, p.lastIndexOf('/'))));
  return [...dirs].sort().map((d) => `${d}/{file}`);
}

export function finishOpenApi(
  generated: OpenApiDocument,
  o: { baseUrl: string; current: PreparedRelease; entries: readonly DocumentEntry[] },
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const [path, ops] of Object.entries(generated.paths)) {
    const wildcard = o.entries.find((e) => e.route.endsWith('*') && path === `${e.route.slice(0, -1)}{*}`);
    const targets = wildcard ? directoryTemplates(wildcard, o.current) : [path];
    for (const target of targets)
      for (const [method, op] of Object.entries(ops)) {
        const described = OPERATIONS[`${method.toUpperCase()} ${target}`];
        const operation: Operation = structuredClone(described ?? op);
        if (wildcard)
          operation.parameters = [
            {
              in: 'path',
              name: 'file',
              required: true,
              description: 'a file name of the release',
              schema: { type: 'string' },
            },
          ];
        operation.operationId = operationIdOf(method, target);
        if (operation.responses?.['304'])
          operation.responses['304'] = { description: operation.responses['304'].description };
        paths[target] ??= {};
        paths[target]![method] = operation;
      }
  }
  return {
    ...generated,
    info: { ...(generated.info as Json), license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
    servers: [{ url: o.baseUrl, description: 'the public origin this service answers as' }],
    security: [],
    paths,
  };
}
