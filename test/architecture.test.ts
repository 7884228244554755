/**
 * The architecture, enforced: the layer order of test/architecture/layers.ts (shown in
 * docs/architecture.md), a pure src/core, no import cycles between files or folders, and
 * process.env read in one place. The checker is first shown to catch planted violations, then
 * run on this repository's src/.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  checkArchitecture,
  parseSource,
  readTree,
  resolveSpecifier,
  RULES,
  type Rule,
  type Violation,
} from './architecture/check.js';
import { LAYERS } from './architecture/layers.js';
import { repoRoot } from './helpers/repo.js';

/** A small tree that keeps every rule, using every import form. */
const GOOD: Record<string, string> = {
  'src/core/sub/index.ts': 'export type T = number;\nexport const c = 1;\n',
  'src/core/b.ts': [
    "import { createHash, type KeyObject } from 'node:crypto';",
    "import canonicalize from 'canonicalize';",
    "import { compactVerify, type JWK } from 'jose';",
    "import type { JWTPayload } from 'jose';",
    'export type K = KeyObject | JWK | JWTPayload;',
    "export const b = (x: unknown) => createHash('sha256').update(canonicalize(x) ?? '').digest('hex');",
    'export const at = (iso: string) => new Date(iso);',
    'export const verify = compactVerify;',
    '// Date.now() and process.env in a comment are not reads',
  ].join('\n'),
  'src/core/a.ts':
    "import { b } from './b.js';\nimport type { T } from './sub/index.js';\nexport { c } from './sub';\nexport const a = (t: T) => b(t);\n",
  'src/corpus/read.ts': "import { b } from '../core/b.js';\nexport const read = () => b(1);\n",
  'src/corpus/README.md': '',
  'src/store/ledger.ts': "import type { T } from '../core/sub/index.js';\nexport const ledger = (t: T) => t;\n",
  'src/serve/state.ts':
    "import { read } from '../corpus/read.js';\nimport '../store/ledger.js';\nexport const state = () => read();\n",
  'src/web/send.ts': "export * from '../serve/state.js';\nexport const lazy = () => import('../serve/state.js');\n",
  'src/http/routes.ts':
    "import { state } from '../web/send.js';\nimport fastify from 'fastify';\nexport const routes = () => [fastify, state()];\n",
  'src/pages/page.ts':
    "import type { state } from '../web/send.js';\nexport type P = ReturnType<typeof import('../serve/state.js').state> | typeof state;\n",
  'src/app.ts': "import { routes } from './http/routes.js';\nimport './pages/page.js';\nexport const app = routes;\n",
  'src/config.ts': 'export const port = Number(process.env.PORT ?? 8080);\n',
  'src/cli/main.ts':
    "import { app } from '../app.js';\nimport { port } from '../config.js';\nexport const run = () => [app, port, process.env.DEBUG];\n",
};

interface Expected {
  rule: Rule;
  file: string;
  specifier?: string;
  says?: string;
}

/** The good tree plus `planted` must give exactly the expected violations. */
function expectViolations(planted: Record<string, string>, expected: Expected[]): Violation[] {
  const found = checkArchitecture({ ...GOOD, ...planted });
  const key = (x: { rule: string; file: string; specifier?: string | undefined }) =>
    `${x.rule} ${x.file} ${x.specifier ?? ''}`;
  assert.deepEqual(found.map(key).sort(), expected.map(key).sort(), found.map((f) => f.message).join('\n'));
  const unused = [...found];
  for (const e of expected) {
    const at = unused.findIndex((x) => key(x) === key(e) && (e.says === undefined || x.message.includes(e.says)));
    assert.ok(at >= 0, `no ${key(e)} saying ${e.says ?? '…'} in:\n${found.map((f) => f.message).join('\n')}`);
    const f = unused.splice(at, 1)[0]!;
    assert.ok(f.message.startsWith(`${e.rule}: `), f.message);
    assert.ok(f.message.includes(e.file), f.message);
    if (e.specifier !== undefined && !e.rule.endsWith('cycle'))
      assert.ok(f.message.includes(`'${e.specifier}'`), f.message);
    assert.ok(!f.message.includes('\n'), 'one line per violation');
  }
  return found;
}

describe('architecture: reading imports', () => {
  it('finds every import form, marks type-only ones, and names the runtime bindings', () => {
    const src = [
      "import a, { b as bee, type C } from './a.js';",
      "import type { D } from './d.js';",
      "import * as ns from 'node:crypto';",
      "import './side.js';",
      "export { e } from './e.js';",
      "export type { F } from './f.js';",
      "export * from './g.js';",
      "import h = require('./h.js');",
      "const lazy = () => import('./i.js');",
      'const tmpl = () => import(`./j.js`);',
      "type K = import('./k.js').K;",
      'const opaque = (p: string) => import(p);',
      "// import { no } from './comment.js';",
      'const s = "import { no } from \'./string.js\'";',
    ].join('\n');
    const parsed = parseSource('src/x.ts', src);
    assert.deepEqual(
      parsed.imports.map((i) => [i.specifier, i.kind, i.typeOnly, i.names.join(','), i.line]),
      [
        ['./a.js', 'import', false, 'default,b', 1],
        ['./d.js', 'import', true, '', 2],
        ['node:crypto', 'import', false, '*', 3],
        ['./side.js', 'side-effect', false, '', 4],
        ['./e.js', 'export-from', false, 'e', 5],
        ['./f.js', 'export-from', true, '', 6],
        ['./g.js', 'export-from', false, '*', 7],
        ['./h.js', 'import-equals', false, '*', 8],
        ['./i.js', 'dynamic', false, '*', 9],
        ['./j.js', 'dynamic', false, '*', 10],
        ['./k.js', 'import-type-node', true, '', 11],
      ],
    );
    assert.deepEqual(
      parsed.opaque.map((o) => o.line),
      [12],
    );
  });

  it('resolves .js to .ts, a folder to its index.ts, and nothing to null', () => {
    const files = new Set(['src/a/b.ts', 'src/a/c/index.ts', 'src/a/d.json']);
    const has = (p: string) => files.has(p);
    assert.equal(resolveSpecifier('src/a/x.ts', './b.js', has), 'src/a/b.ts');
    assert.equal(resolveSpecifier('src/a/x.ts', './b', has), 'src/a/b.ts');
    assert.equal(resolveSpecifier('src/a/c/x.ts', '../b.ts', has), 'src/a/b.ts');
    assert.equal(resolveSpecifier('src/a/x.ts', './c', has), 'src/a/c/index.ts');
    assert.equal(resolveSpecifier('src/a/x.ts', './c/index.js', has), 'src/a/c/index.ts');
    assert.equal(resolveSpecifier('src/a/x.ts', './d.json', has), 'src/a/d.json');
    assert.equal(resolveSpecifier('src/a/x.ts', './missing.js', has), null);
  });
});

describe('architecture: the checker on planted trees', () => {
  it('passes a small good tree that uses every import form', () => {
    assert.deepEqual(
      checkArchitecture(GOOD).map((v) => v.message),
      [],
    );
  });

  it('core purity: src/core importing node:fs', () => {
    expectViolations(
      { 'src/core/fs.ts': "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n" },
      [
        {
          rule: 'core-purity',
          file: 'src/core/fs.ts',
          specifier: 'node:fs',
          says: 'src/core may import only src/core and node:crypto',
        },
      ],
    );
  });

  it('core purity: src/core importing src/http (also folder cycles, since every layer leans on core)', () => {
    expectViolations(
      { 'src/core/up.ts': "import type { routes } from '../http/routes.js';\nexport type R = typeof routes;\n" },
      [
        {
          rule: 'core-purity',
          file: 'src/core/up.ts',
          specifier: '../http/routes.js',
          says: 'src/core imports nothing from the rest of src',
        },
        {
          rule: 'folder-cycle',
          file: 'src/core',
          specifier: '../http/routes.js',
          says: 'src/core → src/http → src/web → src/serve → src/corpus → src/core',
        },
        {
          rule: 'folder-cycle',
          file: 'src/store',
          specifier: '../core/sub/index.js',
          says: 'src/store → src/core → src/http → src/web → src/serve → src/store',
        },
      ],
    );
  });

  it('core purity: a refused binding of an allowed module, and a namespace import of a limited one', () => {
    expectViolations(
      {
        'src/core/remote.ts':
          "import { compactVerify, createRemoteJWKSet } from 'jose';\nexport const r = [compactVerify, createRemoteJWKSet];\n",
        'src/core/ns.ts': "import * as jose from 'jose';\nexport const u = jose;\n",
        'src/core/rand.ts': "import { randomBytes } from 'node:crypto';\nexport const r = randomBytes;\n",
      },
      [
        {
          rule: 'core-purity',
          file: 'src/core/remote.ts',
          specifier: 'jose',
          says: "imports 'jose' { createRemoteJWKSet }",
        },
        { rule: 'core-purity', file: 'src/core/ns.ts', specifier: 'jose', says: '{ * }' },
        { rule: 'core-purity', file: 'src/core/rand.ts', specifier: 'node:crypto', says: '{ randomBytes }' },
      ],
    );
  });

  it('core determinism: clock, randomness and process state', () => {
    const found = expectViolations(
      {
        'src/core/clock.ts': [
          'export const t = Date.now();',
          'export const d = new Date();',
          'export const e = new Date;',
          'export const r = Math.random();',
          'export const u = crypto.randomUUID();',
          'export const p = performance.now();',
          'export const h = process.hrtime();',
          'export const s = Date();',
          "export const f = () => fetch('https://example.org');",
        ].join('\n'),
      },
      Array.from({ length: 9 }, () => ({ rule: 'core-determinism' as const, file: 'src/core/clock.ts' })),
    );
    assert.deepEqual(
      found.map((f) => f.message.match(/:(\d+) reads/)?.[1]),
      ['1', '2', '3', '4', '5', '6', '7', '8', '9'].sort(),
    );
  });

  it('file cycle: two files importing each other', () => {
    expectViolations(
      {
        'src/corpus/x.ts': "import { y } from './y.js';\nexport const x = () => y;\n",
        'src/corpus/y.ts': "import { x } from './x.js';\nexport const y = () => x;\n",
      },
      [
        {
          rule: 'file-cycle',
          file: 'src/corpus/x.ts',
          specifier: './y.js',
          says: 'src/corpus/x.ts → src/corpus/y.ts → src/corpus/x.ts',
        },
      ],
    );
  });

  it('file cycle: type-only imports count', () => {
    expectViolations(
      {
        'src/store/p.ts': "import type { Q } from './q.js';\nexport interface P { q?: Q }\n",
        'src/store/q.ts': "export type { P as Q2 } from './p.js';\nexport interface Q { n: number }\n",
      },
      [
        {
          rule: 'file-cycle',
          file: 'src/store/p.ts',
          specifier: './q.js',
          says: 'src/store/p.ts → src/store/q.ts → src/store/p.ts (type-only imports, still a cycle)',
        },
      ],
    );
  });

  it('folder cycle: two sibling folders importing each other with no file cycle', () => {
    expectViolations(
      {
        'src/release/x/a.ts': "import { b } from '../y/b.js';\nexport const a = b;\n",
        'src/release/y/b.ts': "import { c } from '../x/c.js';\nexport const b = c;\n",
        'src/release/x/c.ts': 'export const c = 1;\n',
      },
      [
        {
          rule: 'folder-cycle',
          file: 'src/release/x',
          specifier: '../y/b.js',
          says: "src/release/x → src/release/y → src/release/x (src/release/x/a.ts:1 imports '../y/b.js'; src/release/y/b.ts:1 imports '../x/c.js')",
        },
      ],
    );
  });

  it('layer order: an upward import (store importing serve, which imports store: also a folder cycle)', () => {
    expectViolations({ 'src/store/up.ts': "import { state } from '../serve/state.js';\nexport const up = state;\n" }, [
      { rule: 'layer', file: 'src/store/up.ts', specifier: '../serve/state.js', says: 'store may not import serve' },
      {
        rule: 'folder-cycle',
        file: 'src/serve',
        specifier: '../store/ledger.js',
        says: 'src/serve → src/store → src/serve',
      },
    ]);
  });

  it('layer order: a sibling import (pages importing http)', () => {
    expectViolations(
      { 'src/pages/sib.ts': "import { routes } from '../http/routes.js';\nexport const sib = routes;\n" },
      [{ rule: 'layer', file: 'src/pages/sib.ts', specifier: '../http/routes.js', says: 'pages may not import http' }],
    );
  });

  it('env: process.env read in src/status, in every spelling', () => {
    expectViolations(
      {
        'src/status/probe.ts':
          "export const url = process.env.PROBE_URL;\nexport const b = process['env'];\nconst { env } = process;\nexport const c = env;\n",
        'src/status/np.ts': "import { env } from 'node:process';\nexport const d = env;\n",
      },
      [
        {
          rule: 'env',
          file: 'src/status/probe.ts',
          says: 'reads process.env: only src/cli/ and src/config.ts read the environment',
        },
        { rule: 'env', file: 'src/status/probe.ts', says: "reads process['env']" },
        { rule: 'env', file: 'src/status/probe.ts', says: 'reads { env } = process' },
        { rule: 'env', file: 'src/status/np.ts', says: "reads env from 'node:process'" },
      ],
    );
  });

  it('placement: a stray top-level folder and a stray file directly in src/', () => {
    expectViolations(
      {
        'src/stray/a.ts': 'export const a = 1;\n',
        'src/stray/b.ts': 'export const b = 1;\n',
        'src/util.ts': 'export const u = 1;\n',
      },
      [
        { rule: 'placement', file: 'src/stray/', says: 'is a top-level folder no layer owns (2 files)' },
        {
          rule: 'placement',
          file: 'src/util.ts',
          says: 'only src/app.ts, src/config.ts, src/mirror.ts, src/service.ts live there',
        },
      ],
    );
  });

  it('unresolved: a relative import naming no file, and an import of an expression', () => {
    expectViolations(
      { 'src/http/lost.ts': "import { gone } from './gone.js';\nexport const l = (p: string) => [gone, import(p)];\n" },
      [
        { rule: 'unresolved', file: 'src/http/lost.ts', specifier: './gone.js', says: 'names no file under src/' },
        { rule: 'unresolved', file: 'src/http/lost.ts', says: 'not a string literal' },
      ],
    );
  });
});

describe('architecture: the layer table', () => {
  it('is well formed: unique names, rows name only rows below them, every folder owned once', () => {
    const seen: string[] = [];
    for (const l of LAYERS) {
      assert.ok(!seen.includes(l.name), `${l.name} twice`);
      for (const m of l.mayImport)
        assert.ok(seen.includes(m), `${l.name} may import ${m}, which is not a row below it`);
      seen.push(l.name);
    }
    const owned = LAYERS.flatMap((l) => l.owns);
    assert.equal(new Set(owned).size, owned.length);
    for (const o of owned) assert.match(o, /^src\/([a-z][a-z0-9-]*\/|[a-z][a-z0-9-]*\.ts)$/);
  });

  it('is what docs/architecture.md draws and tabulates (every arrow, no more)', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'architecture.md'), 'utf8');
    const block = doc.match(/```mermaid\n([\s\S]*?)```/)?.[1];
    assert.ok(block !== undefined, 'docs/architecture.md has a mermaid block');
    const groups = new Map<string, Set<string>>();
    const open: string[] = [];
    const arrows: [string, string][] = [];
    const ids = (s: string) =>
      s
        .split('&')
        .map((x) => x.trim().replace(/\[.*$/, '').trim())
        .filter((x) => x !== '');
    for (const raw of block.split('\n')) {
      const line = raw.replace(/%%.*$/, '').trim();
      if (line === '' || line.startsWith('flowchart') || line.startsWith('classDef') || line.startsWith('class '))
        continue;
      const sub = line.match(/^subgraph\s+([\w-]+)/);
      if (sub) {
        groups.set(sub[1]!, new Set());
        open.push(sub[1]!);
        continue;
      }
      if (line === 'end') {
        open.pop();
        continue;
      }
      const [left, ...rights] = line.split('-->');
      const nodes = [...ids(left!), ...rights.flatMap(ids)];
      for (const g of open) for (const n of nodes) groups.get(g)!.add(n);
      if (rights.length === 1) for (const a of ids(left!)) for (const b of ids(rights[0]!)) arrows.push([a, b]);
      else assert.equal(rights.length, 0, `one arrow per line: ${line}`);
    }
    const expand = (n: string): string[] => (groups.has(n) ? [...groups.get(n)!].flatMap(expand) : [n]);
    const drawn = new Set(arrows.flatMap(([a, b]) => expand(a).flatMap((x) => expand(b).map((y) => `${x} → ${y}`))));
    const table = new Set(LAYERS.flatMap((l) => l.mayImport.map((m) => `${l.name} → ${m}`)));
    assert.deepEqual([...drawn].filter((e) => !table.has(e)).sort(), [], 'drawn but not in the table');
    assert.deepEqual([...table].filter((e) => !drawn.has(e)).sort(), [], 'in the table but not drawn');

    const rows = doc
      .split('\n')
      .filter((l) => /^\| [a-z]+ \| `src\//.test(l))
      .map((l) =>
        l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    const list = (c: string) => (c === 'nothing' ? [] : c.split(',').map((x) => x.trim().replace(/`/g, '')));
    assert.deepEqual(
      rows.map(([name, own, may]) => ({ name, owns: list(own!), mayImport: list(may!) })),
      LAYERS.map((l) => ({ name: l.name, owns: [...l.owns], mayImport: [...l.mayImport] })),
      'the table in docs/architecture.md',
    );
  });
});

describe('architecture: this repository', () => {
  const violations = checkArchitecture(readTree(repoRoot));
  for (const rule of RULES) {
    it(`src/ keeps ${rule}`, () => {
      const mine = violations.filter((v) => v.rule === rule);
      assert.equal(
        mine.length,
        0,
        `${mine.length} ${rule} violation${mine.length === 1 ? '' : 's'}:\n${mine.map((v) => `  ${v.message}`).join('\n')}`,
      );
    });
  }
});
