/**
 * The architecture checker: a function over a tree of sources ({'src/…': text}), so a test can
 * feed it a planted tree as well as the real src/. Imports are read with the TypeScript
 * compiler's parser (no type checking), every form: `import … from`, `import type`,
 * `export … from`, side-effect imports, `import x = require()`, `import('…')` calls and
 * `import('…').T` types. Relative specifiers resolve to files of the tree (`.js` → `.ts`, a
 * folder → its `index.ts`).
 *
 * Rules (one line per violation, `rule: file:line …: reason`):
 *   core-purity       src/core imports only src/core and CORE_PURE_MODULES
 *   core-determinism  src/core reads no clock, randomness or process state
 *   env               only ENV_READERS read process.env
 *   placement         every file belongs to a row of LAYERS
 *   layer             a unit imports only the units of its row
 *   file-cycle        no import cycle between files (type-only imports count)
 *   folder-cycle      no import cycle between sibling folders, at every depth
 *   unresolved        every relative import names a file of the tree; every import is a literal
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';
import { CORE_PURE_MODULES, ENV_READERS, LAYERS, type Layer, type PureModule } from './layers.js';

export type Rule =
  | 'core-purity'
  | 'core-determinism'
  | 'env'
  | 'placement'
  | 'layer'
  | 'file-cycle'
  | 'folder-cycle'
  | 'unresolved';
export const RULES: readonly Rule[] = [
  'core-purity',
  'core-determinism',
  'env',
  'placement',
  'layer',
  'file-cycle',
  'folder-cycle',
  'unresolved',
];

export interface Violation {
  rule: Rule;
  /** The file the violation is reported against (for a cycle, its first file or folder). */
  file: string;
  /** The import specifier concerned, when there is one. */
  specifier?: string;
  /** One line: `rule: file:line what: reason`. */
  message: string;
}

export type ImportKind = 'import' | 'export-from' | 'side-effect' | 'import-equals' | 'dynamic' | 'import-type-node';

export interface ImportRef {
  specifier: string;
  kind: ImportKind;
  line: number;
  /** Erased at run time: `import type`, every binding `type`, `export type … from`, `import('…').T`. */
  typeOnly: boolean;
  /** Runtime bindings taken from the module; '*' for a namespace, 'default' for a default import. */
  names: string[];
}

export interface ParsedFile {
  imports: ImportRef[];
  /** Imports whose module is not a string literal (`import(expr)`): they cannot be checked. */
  opaque: { line: number; text: string }[];
  /** Clock, randomness, process and network reads (checked in src/core only). */
  impure: { line: number; what: string }[];
  /** process.env reads. */
  env: { line: number; what: string }[];
}

const RANDOM = new Set([
  'randomBytes',
  'randomUUID',
  'randomInt',
  'randomFill',
  'randomFillSync',
  'getRandomValues',
  'generateKeyPair',
  'generateKeyPairSync',
  'generateKey',
  'generateKeySync',
]);

function moduleName(e: ts.Expression | undefined): string | undefined {
  return e !== undefined && (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) ? e.text : undefined;
}

function isNamed(e: ts.Expression, name: string): boolean {
  return ts.isIdentifier(e) && e.text === name;
}

/** Reads one source text's imports and the reads the rules care about. */
export function parseSource(path: string, text: string): ParsedFile {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: ParsedFile = { imports: [], opaque: [], impure: [], env: [] };
  const lineOf = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const add = (node: ts.Node, specifier: string, kind: ImportKind, typeOnly: boolean, names: string[]) =>
    out.imports.push({ specifier, kind, line: lineOf(node), typeOnly, names });

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const spec = moduleName(node.moduleSpecifier)!;
      const clause = node.importClause;
      if (clause === undefined) add(node, spec, 'side-effect', false, []);
      else {
        const names: string[] = [];
        if (!clause.isTypeOnly) {
          if (clause.name) names.push('default');
          const b = clause.namedBindings;
          if (b && ts.isNamespaceImport(b)) names.push('*');
          else if (b) for (const el of b.elements) if (!el.isTypeOnly) names.push((el.propertyName ?? el.name).text);
        }
        add(node, spec, 'import', names.length === 0, names);
      }
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const names: string[] = [];
      if (!node.isTypeOnly) {
        const c = node.exportClause;
        if (c === undefined || ts.isNamespaceExport(c)) names.push('*');
        else for (const el of c.elements) if (!el.isTypeOnly) names.push((el.propertyName ?? el.name).text);
      }
      add(node, moduleName(node.moduleSpecifier)!, 'export-from', names.length === 0, names);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const spec = moduleName(node.moduleReference.expression);
      if (spec !== undefined) add(node, spec, 'import-equals', node.isTypeOnly, node.isTypeOnly ? [] : ['*']);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal))
        add(node, arg.literal.text, 'import-type-node', true, []);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const spec = moduleName(node.arguments[0]);
      if (spec !== undefined) add(node, spec, 'dynamic', false, ['*']);
      else out.opaque.push({ line: lineOf(node), text: node.getText(sf).slice(0, 60) });
    } else if (ts.isPropertyAccessExpression(node)) {
      const obj = node.expression;
      const name = node.name.text;
      const target =
        ts.isPropertyAccessExpression(obj) && isNamed(obj.expression, 'globalThis')
          ? obj.name.text
          : ts.isIdentifier(obj)
            ? obj.text
            : undefined;
      if (target === 'process' && name === 'env') out.env.push({ line: lineOf(node), what: 'process.env' });
      else if (target === 'process') out.impure.push({ line: lineOf(node), what: `process.${name}` });
      else if ((target === 'Date' || target === 'performance') && name === 'now')
        out.impure.push({ line: lineOf(node), what: `${target}.now()` });
      else if (target === 'Math' && name === 'random') out.impure.push({ line: lineOf(node), what: 'Math.random()' });
      else if (RANDOM.has(name) && (target !== undefined || ts.isPropertyAccessExpression(obj)))
        out.impure.push({ line: lineOf(node), what: `${node.getText(sf)}` });
    } else if (
      ts.isElementAccessExpression(node) &&
      isNamed(node.expression, 'process') &&
      moduleName(node.argumentExpression) === 'env'
    ) {
      out.env.push({ line: lineOf(node), what: "process['env']" });
    } else if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      isNamed(node.initializer, 'process') &&
      ts.isObjectBindingPattern(node.name)
    ) {
      for (const el of node.name.elements) {
        const key = el.propertyName ?? el.name;
        if (ts.isIdentifier(key))
          (key.text === 'env' ? out.env : out.impure).push({ line: lineOf(node), what: `{ ${key.text} } = process` });
      }
    } else if (
      ts.isNewExpression(node) &&
      isNamed(node.expression, 'Date') &&
      (node.arguments === undefined || node.arguments.length === 0)
    ) {
      out.impure.push({ line: lineOf(node), what: 'new Date()' });
    } else if (ts.isCallExpression(node) && (isNamed(node.expression, 'Date') || isNamed(node.expression, 'fetch'))) {
      out.impure.push({ line: lineOf(node), what: `${(node.expression as ts.Identifier).text}()` });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  // `import { env } from 'node:process'` is a process.env read too; any other process import is process state.
  for (const i of out.imports) {
    if (i.specifier !== 'node:process' && i.specifier !== 'process') continue;
    for (const n of i.names)
      (n === 'env' ? out.env : out.impure).push({
        line: i.line,
        what: `${n === '*' || n === 'default' ? 'process' : n} from '${i.specifier}'`,
      });
  }
  return out;
}

/** Resolves a relative specifier from `from` to a path of the tree, or null. */
export function resolveSpecifier(from: string, specifier: string, has: (p: string) => boolean): string | null {
  const p = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [p];
  if (p.endsWith('.js')) candidates.push(`${p.slice(0, -3)}.ts`);
  else if (p.endsWith('.mjs')) candidates.push(`${p.slice(0, -4)}.mts`);
  else if (!p.endsWith('.ts')) candidates.push(`${p}.ts`, `${p}/index.ts`);
  return candidates.find(has) ?? null;
}

const isRelative = (s: string) =>
  s.startsWith('./') || s.startsWith('../') || s === '.' || s === '..' || s.startsWith('/');
const isSource = (p: string) => p.endsWith('.ts') && !p.endsWith('.d.ts');
const owns = (entry: string, path: string) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry);

function ownerOf(path: string, layers: readonly Layer[]): Layer | undefined {
  return layers.find((l) => l.owns.some((e) => owns(e, path)));
}

/** Strongly connected components (Tarjan), each with more than one node or a self-loop. */
export function cyclicComponents(graph: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)?.has(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) strong(v);
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * Cycles that together pass through every node of a component: the shortest cycle through the
 * first node not yet on a reported cycle, until none is left. Each cycle starts and ends at the
 * same node.
 */
export function coveringCycles(graph: Map<string, Set<string>>, scc: readonly string[]): string[][] {
  const inScc = new Set(scc);
  const uncovered = new Set(scc);
  const cycles: string[][] = [];
  while (uncovered.size > 0) {
    const start = [...uncovered].sort()[0]!;
    const prev = new Map<string, string>();
    const queue = [start];
    let end: string | undefined;
    for (let i = 0; i < queue.length && end === undefined; i++) {
      const v = queue[i]!;
      for (const w of [...(graph.get(v) ?? [])].sort()) {
        if (!inScc.has(w)) continue;
        if (w === start) {
          end = v;
          break;
        }
        if (!prev.has(w)) {
          prev.set(w, v);
          queue.push(w);
        }
      }
    }
    const path = [start];
    for (let v = end!; v !== start; v = prev.get(v)!) path.splice(1, 0, v);
    path.push(start);
    for (const v of path) uncovered.delete(v);
    cycles.push(path);
  }
  return cycles;
}

interface Edge {
  from: string;
  to: string;
  specifier: string;
  line: number;
  typeOnly: boolean;
}

/** Checks a tree of sources ({'src/…': text}; non-.ts files only need to be present). */
export function checkArchitecture(
  tree: Readonly<Record<string, string>>,
  layers: readonly Layer[] = LAYERS,
): Violation[] {
  const paths = Object.keys(tree).sort();
  const has = (p: string) => Object.hasOwn(tree, p);
  const v: Violation[] = [];
  const report = (rule: Rule, file: string, line: number | null, what: string, reason: string, specifier?: string) =>
    v.push({
      rule,
      file,
      ...(specifier === undefined ? {} : { specifier }),
      message: `${rule}: ${file}${line === null ? '' : `:${line}`} ${what}: ${reason}`,
    });

  // placement: every file belongs to a row.
  const unknownFolders = new Map<string, number>();
  for (const p of paths) {
    if (ownerOf(p, layers)) continue;
    const rest = p.startsWith('src/') ? p.slice(4) : p;
    if (!p.startsWith('src/')) report('placement', p, null, 'is outside src/', 'the checker reads src/ only');
    else if (!rest.includes('/'))
      report(
        'placement',
        p,
        null,
        'is a file directly in src/',
        `only ${layers.flatMap((l) => l.owns.filter((e) => !e.endsWith('/'))).join(', ')} live there (add it to test/architecture/layers.ts deliberately)`,
      );
    else {
      const f = `src/${rest.slice(0, rest.indexOf('/'))}/`;
      unknownFolders.set(f, (unknownFolders.get(f) ?? 0) + 1);
    }
  }
  for (const [f, n] of unknownFolders)
    report(
      'placement',
      f,
      null,
      `is a top-level folder no layer owns (${n} file${n === 1 ? '' : 's'})`,
      'add it to test/architecture/layers.ts deliberately',
    );

  const edges: Edge[] = [];
  for (const file of paths.filter(isSource)) {
    const parsed = parseSource(file, tree[file]!);
    const layer = ownerOf(file, layers);
    const inCore = layer?.name === 'core';
    const envOk = ENV_READERS.some((e) => owns(e, file));
    for (const o of parsed.opaque)
      report('unresolved', file, o.line, `imports ${o.text}`, 'not a string literal, so the check cannot follow it');
    if (!envOk)
      for (const e of parsed.env)
        report('env', file, e.line, `reads ${e.what}`, `only ${ENV_READERS.join(' and ')} read the environment`);
    if (inCore)
      for (const e of parsed.impure)
        report(
          'core-determinism',
          file,
          e.line,
          `reads ${e.what}`,
          'src/core reads no clock, randomness, process state or network',
        );

    for (const i of parsed.imports) {
      const what = `imports '${i.specifier}'`;
      if (!isRelative(i.specifier)) {
        if (!inCore) continue;
        const pure: PureModule | undefined = Object.hasOwn(CORE_PURE_MODULES, i.specifier)
          ? CORE_PURE_MODULES[i.specifier]
          : undefined;
        if (pure === undefined) {
          report(
            'core-purity',
            file,
            i.line,
            what,
            `src/core may import only src/core and ${Object.keys(CORE_PURE_MODULES).join(', ')}`,
            i.specifier,
          );
          continue;
        }
        const refused = i.names.filter(
          (n) => (pure.only !== undefined && !pure.only.includes(n)) || (pure.except?.includes(n) ?? false),
        );
        if (refused.length > 0) {
          const rule = pure.only !== undefined ? `only { ${pure.only.join(', ')} }` : `not { ${refused.join(', ')} }`;
          report(
            'core-purity',
            file,
            i.line,
            `${what} { ${refused.join(', ')} }`,
            `src/core may take ${rule} from ${i.specifier}`,
            i.specifier,
          );
        }
        continue;
      }
      const target = resolveSpecifier(file, i.specifier, has);
      if (target === null) {
        report('unresolved', file, i.line, what, 'names no file under src/', i.specifier);
        continue;
      }
      if (isSource(target))
        edges.push({ from: file, to: target, specifier: i.specifier, line: i.line, typeOnly: i.typeOnly });
      const to = ownerOf(target, layers);
      if (inCore && to?.name !== 'core') {
        report(
          'core-purity',
          file,
          i.line,
          `${what} (${target})`,
          'src/core imports nothing from the rest of src',
          i.specifier,
        );
        continue;
      }
      if (layer === undefined || to === undefined || to === layer) continue;
      if (!layer.mayImport.includes(to.name))
        report('layer', file, i.line, `${what} (${target})`, `${layer.name} may not import ${to.name}`, i.specifier);
    }
  }

  // file-cycle: type-only edges count (a dependency of design either way).
  const fileGraph = new Map<string, Set<string>>();
  const edgeOf = new Map<string, Edge>();
  for (const e of edges) {
    if (!fileGraph.has(e.from)) fileGraph.set(e.from, new Set());
    fileGraph.get(e.from)!.add(e.to);
    const k = `${e.from}\0${e.to}`;
    const seen = edgeOf.get(k);
    if (seen === undefined || (seen.typeOnly && !e.typeOnly)) edgeOf.set(k, e);
  }
  for (const scc of cyclicComponents(fileGraph)) {
    for (const cycle of coveringCycles(fileGraph, scc)) {
      const first = edgeOf.get(`${cycle[0]}\0${cycle[1]}`)!;
      const typeEdges = cycle
        .slice(1)
        .map((t, k) => [cycle[k]!, t] as const)
        .filter(([f, t]) => edgeOf.get(`${f}\0${t}`)!.typeOnly);
      const typeNote =
        typeEdges.length === cycle.length - 1
          ? ' (type-only imports, still a cycle)'
          : typeEdges.length > 0
            ? ` (type-only: ${typeEdges.map(([f, t]) => `${posix.basename(f)} → ${posix.basename(t)}`).join(', ')})`
            : '';
      const extra =
        scc.length > cycle.length - 1 && cycle[0] === scc[0]
          ? ` (one of ${scc.length} files importing each other)`
          : '';
      v.push({
        rule: 'file-cycle',
        file: cycle[0]!,
        specifier: first.specifier,
        message: `file-cycle: ${cycle.join(' → ')}${typeNote}${extra}`,
      });
    }
  }

  // folder-cycle: an import between folders X and Y (neither containing the other) is an edge
  // between the two sibling folders directly under their common ancestor.
  const folderGraph = new Map<string, Set<string>>();
  const witness = new Map<string, Edge>();
  for (const e of edges) {
    const a = posix.dirname(e.from).split('/');
    const b = posix.dirname(e.to).split('/');
    let k = 0;
    while (k < a.length && k < b.length && a[k] === b[k]) k++;
    if (k === a.length || k === b.length) continue;
    const x = a.slice(0, k + 1).join('/');
    const y = b.slice(0, k + 1).join('/');
    if (!folderGraph.has(x)) folderGraph.set(x, new Set());
    folderGraph.get(x)!.add(y);
    if (!witness.has(`${x}\0${y}`)) witness.set(`${x}\0${y}`, e);
  }
  for (const scc of cyclicComponents(folderGraph)) {
    for (const cycle of coveringCycles(folderGraph, scc)) {
      const via = cycle.slice(1).map((t, k) => {
        const w = witness.get(`${cycle[k]}\0${t}`)!;
        return `${w.from}:${w.line} imports '${w.specifier}'`;
      });
      v.push({
        rule: 'folder-cycle',
        file: cycle[0]!,
        specifier: witness.get(`${cycle[0]}\0${cycle[1]}`)!.specifier,
        message: `folder-cycle: ${cycle.join(' → ')} (${via.join('; ')})`,
      });
    }
  }
  return v.sort((p, q) => RULES.indexOf(p.rule) - RULES.indexOf(q.rule) || p.message.localeCompare(q.message));
}

/** Reads a directory into a tree keyed by paths relative to `root` (POSIX separators). */
export function readTree(root: string, dir = 'src'): Record<string, string> {
  const tree: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, e.name);
      const rel = relative(root, full).split(sep).join('/');
      if (e.isDirectory()) walk(full);
      else tree[rel] = isSource(rel) ? readFileSync(full, 'utf8') : '';
    }
  };
  walk(join(root, dir));
  return tree;
}
