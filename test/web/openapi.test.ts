/**
 * `GET /openapi.json` (issue 18): an OpenAPI 3.1 document generated from the route schemas, with a
 * path for every route the service registers; every free document of the demo release, and the
 * errors, as the service really answers them, validate against it, so it cannot drift.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import { buildApp } from '../../src/app.js';
import { readConfig } from '../../src/config.js';
import { documentRegistry } from '../../src/serve/documents/registry.js';
import { demoApp } from '../helpers/app.js';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
  parameters?: { in: string; name: string }[];
}
interface OpenApi {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}

const { state } = demoApp();
const app = buildApp({ state, logLevel: 'silent', products: { rail: readConfig({}).rail } });
const doc = JSON.parse((await app.inject({ url: '/openapi.json' })).body) as OpenApi;
const ajv = new Ajv2020.default({ strict: false, allErrors: true });

/** The operation a concrete path answers by: Fastify's `:name` and `*` as OpenAPI templates. */
function operationFor(path: string, method = 'get'): Operation | undefined {
  const bare = path.split('?')[0]!;
  for (const [template, ops] of Object.entries(doc.paths)) {
    const re = new RegExp(
      `^${template
        .replace(/[.]/g, '\\.')
        .replace(/\{\*\}/g, '.+')
        .replace(/\{[^}]+\}/g, '[^/]+')}$`,
    );
    if (re.test(bare) && ops[method]) return ops[method];
  }
  return undefined;
}

/** Validates a real response against the operation's schema for its status (else `default`). */
function check(path: string, status: number, contentType: string, body: string, method = 'get'): string[] {
  const op = operationFor(path, method);
  if (!op) return [`${method.toUpperCase()} ${path}: no operation in /openapi.json`];
  const response = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
  if (!response) return [`${path}: status ${status} is not described`];
  const content = response.content ?? {};
  const media = contentType.split(';')[0]!;
  const entry = content[media] ?? content['*/*'];
  if (!entry) return Object.keys(content).length === 0 ? [] : [`${path}: ${media} is not described for ${status}`];
  if (!/^application\/([a-z0-9.-]+\+)?json$/.test(media)) return []; // JSONL, text: described by media type only
  const validate = ajv.compile(entry.schema);
  return validate(JSON.parse(body)) ? [] : [`${path} (${status}): ${ajv.errorsText(validate.errors)}`];
}

describe('/openapi.json', () => {
  it('is OpenAPI 3.1, named and versioned, generated with a path for every document of the registry', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'gspc-board');
    assert.match(doc.info.version, /^\d+\.\d+\.\d+/);
    for (const entry of documentRegistry({ products: true }))
      if (entry.route.endsWith('*'))
        // A file route is one path per directory of the release's files (`/peritem/axes/{file}`).
        for (const p of entry.paths(state.current())) assert.ok(operationFor(p), `${p} (${entry.id}) is described`);
      else assert.ok(doc.paths[entry.route.replace(/:([a-z]+)/g, '{$1}')], `${entry.route} (${entry.id}) is described`);
    for (const route of ['/api/verify', '/api/request-attestation', '/mcp', '/api/a2a', '/dashboard', '/assets/{file}'])
      assert.ok(doc.paths[route], `${route} is described`);
  });

  it('every free document of the demo, as served, validates against its operation', async () => {
    const current = state.current();
    const problems: string[] = [];
    let checked = 0;
    for (const entry of documentRegistry({ products: true })) {
      for (const path of entry.paths(current).slice(0, 40)) {
        const r = await app.inject({ url: path });
        problems.push(...check(path, r.statusCode, String(r.headers['content-type'] ?? ''), r.body));
        checked++;
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(checked > 100, `${checked} responses checked`);
  });

  it('errors, a challenge and a verification answer validate too (the default error shape, a 402, a POST)', async () => {
    const cases: [string, string, string | undefined][] = [
      ['get', '/api/gspc?axis=nope', undefined],
      ['get', '/api/gspc?nope=1', undefined],
      ['get', '/cards/0000000000000000.json', undefined],
      ['get', '/api/request-attestation?subject=demo%2Fatlas-70b', undefined],
      ['post', '/api/verify', '{}'],
    ];
    const problems: string[] = [];
    for (const [method, url, body] of cases) {
      const r = await app.inject({
        method: method.toUpperCase() as 'GET' | 'POST',
        url,
        ...(body !== undefined && { payload: body, headers: { 'content-type': 'application/json' } }),
      });
      assert.ok(r.statusCode >= 200, url);
      problems.push(...check(url, r.statusCode, String(r.headers['content-type'] ?? ''), r.body, method));
    }
    assert.deepEqual(problems, []);
  });

  it('is linked from the pages', async () => {
    const page = await app.inject({ url: '/methodology' });
    assert.match(page.body, /<a href="\/openapi\.json">\/openapi\.json<\/a>/);
  });
});
