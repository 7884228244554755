#!/usr/bin/env node
/**
 * The test command (issue 14).
 *
 *   node scripts/test.mjs            everything (`npm test`, what CI runs)
 *   node scripts/test.mjs --unit     the unit set only (`npm run test:unit`)
 *   node scripts/test.mjs FILE...    only these test files (after the same build as `npm test`)
 *   node scripts/test.mjs --build    only the build of dist/ and build/js/ (`npm run bench` runs its
 *                                    children compiled)
 *
 * `npm test`: makes sure Debian's Chromium and nginx are there (scripts/ensure-debian.mjs), and the
 * third-party suites (scripts/ensure-third-party.mjs: MCP conformance, Redocly, Prism), then ONE
 * `tsc -b` over tsconfig.test.json and tsconfig.browser.json: it builds dist/ from src/ only when
 * a source changed since the last build (the .tsbuildinfo in dist/ says which; `npm ci` already
 * built it through `prepare`), type-checks test/, bench/ and demo/ against it and compiles them to
 * build/js/ (again only what changed), and type-checks the browser scripts; then bundles the
 * pages' browser scripts (esbuild, well under a second); then checks formatting and lint (Biome)
 * and dead code (knip); then runs every test/**\/*.test.ts, compiled (build/js/test/**\/*.test.js,
 * whose `../../src/` imports reach dist/ through the link build/js/src -> dist), under node's test
 * runner, two files at a time. Compiled, because tsx's loader hooks cost more than half of a test
 * file's start-up (decision ST12); the source maps point failures at the .ts lines.
 *
 * `--unit` skips all of that and runs only the unit files, from the sources under tsx: every test
 * file except the `*.e2e.test.ts` ones. A test file is an e2e file, and must be named so, when any
 * of its tests needs more than its own process: a browser, a local chain (anvil), PostgreSQL, or a
 * child process (the compiled `gspc` bin, `npm start`, a demo script). Unit files need neither
 * dist/ nor a type-check.
 *
 * The output is the spec reporter's, then (scripts/test-reporter.mjs) every skipped test with its
 * reason, the slowest files, and last, alone on its line, `N passed, N failed, N skipped`. The exit
 * status is non-zero when anything failed (a type error, a failed or cancelled test, a file that
 * crashed), and when that line could not be produced.
 *
 * GSPC_TEST_CONCURRENCY overrides the number of test files run at once (default 2: measured on
 * the 2-core machine, see docs/performance.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const unit = args.includes('--unit');
const buildOnly = args.includes('--build');
const only = args.filter((a) => a !== '--unit' && a !== '--build');
const concurrency = Number(process.env.GSPC_TEST_CONCURRENCY ?? 2);
if (!Number.isInteger(concurrency) || concurrency < 1)
  fail(`GSPC_TEST_CONCURRENCY must be a whole number ≥ 1, not ${process.env.GSPC_TEST_CONCURRENCY}`);

const phases = [];
function phase(name, fn) {
  const started = performance.now();
  const result = fn();
  phases.push(`${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}
function fail(message) {
  process.stderr.write(`\ntest: ${message}\n`);
  process.exit(1);
}
function run(cmd, cmdArgs, what) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit' });
  if (r.error) fail(`${what} could not start: ${r.error.message}`);
  if (r.status !== 0) fail(`${what} failed (exit ${r.status ?? r.signal}); no test was run`);
}

/** Every test/**\/*.test.ts, sorted, as paths relative to the repository. */
function testFiles(dir = join(root, 'test')) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...testFiles(p));
    else if (e.name.endsWith('.test.ts')) out.push(relative(root, p));
  }
  return out.sort();
}

/** Where `npm test` runs a test file from: its compiled .js under build/js/. */
const compiled = (file) => join('build', 'js', file).replace(/\.ts$/, '.js');

/**
 * The first .js file tsc should have emitted but did not (src/ to dist/, browser scripts apart;
 * test/, bench/ and demo/ to build/js/), so that an output deleted by hand forces a rebuild.
 */
function missingOutput(dir, out) {
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (p === join('src', 'pages', 'browser') || p === join('demo', 'corpus')) continue;
      const missing = missingOutput(p, out);
      if (missing) return missing;
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) {
      const js = out(p);
      if (!existsSync(join(root, js))) return js;
    }
  }
  return undefined;
}
const missingFromBuild = () =>
  missingOutput('src', (p) => join('dist', relative('src', p)).replace(/\.ts$/, '.js')) ??
  ['test', 'bench', 'demo'].map((d) => missingOutput(d, compiled)).find((m) => m !== undefined);

/** build/js/src -> ../../dist: the compiled tests' `../../src/x.js` imports are the built service. */
function linkSrcToDist() {
  const link = join(root, 'build', 'js', 'src');
  if (existsSync(link) && lstatSync(link).isSymbolicLink()) return;
  rmSync(link, { recursive: true, force: true });
  symlinkSync(join('..', '..', 'dist'), link, 'dir');
}

/** tsc -b over the service, the tests, the bench and the demo; then the link build/js/src -> dist. */
function build() {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  // tsc -b trusts its .tsbuildinfo: an output deleted by hand would not be re-emitted.
  const missing = missingFromBuild();
  run(
    process.execPath,
    [tsc, '-b', 'tsconfig.test.json', 'tsconfig.browser.json', ...(missing ? ['--force'] : [])],
    `tsc -b (build of dist/ and build/js/, and type-check${missing ? `, forced: ${missing} was missing` : ''})`,
  );
  linkSrcToDist();
}

if (buildOnly) {
  build();
  process.exit(0);
}

if (!unit) {
  phase('debian', () => run(process.execPath, ['scripts/ensure-debian.mjs'], 'scripts/ensure-debian.mjs'));
  phase('third-party', () =>
    run(process.execPath, ['scripts/ensure-third-party.mjs'], 'scripts/ensure-third-party.mjs'),
  );
  phase('build+typecheck', build);
  phase('pages', () => run(process.execPath, ['scripts/build-pages.mjs'], 'scripts/build-pages.mjs'));
  // Formatting and lint (Biome) and dead code (knip): a finding fails the command like a test.
  phase('lint', () =>
    run(
      process.execPath,
      [join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome'), 'ci', '--error-on-warnings', '.'],
      'biome ci (format and lint)',
    ),
  );
  phase('knip', () =>
    run(
      process.execPath,
      [join(root, 'node_modules', 'knip', 'bin', 'knip.js')],
      'knip (unused files, exports, dependencies)',
    ),
  );
}

// The e2e files first: they are the long ones (a browser, a chain, child processes), and a long
// file started last leaves one core idle at the end while it finishes alone. Each group sorted.
const isE2e = (f) => f.endsWith('.e2e.test.ts');
const all = [...testFiles().filter(isE2e), ...testFiles().filter((f) => !isE2e(f))];
let files = unit ? all.filter((f) => !isE2e(f)) : all;
if (only.length > 0) {
  const unknown = only.filter((f) => !existsSync(join(root, f)) || !statSync(join(root, f)).isFile());
  if (unknown.length > 0) fail(`no such test file: ${unknown.join(', ')}`);
  files = only;
}

// The tests' temporary files (every tempDir(), the SQLite ledgers, the published releases, the
// browser profiles) go to one directory per run, on tmpfs when the machine has /dev/shm: a
// publish fsyncs every file it writes, which on a busy disk costs more than the publish itself.
// No test asserts durability through a real disk. GSPC_TEST_TMPDIR chooses another parent.
const tmpParent = process.env.GSPC_TEST_TMPDIR ?? (existsSync('/dev/shm') ? '/dev/shm' : tmpdir());
const runTmp = mkdtempSync(join(tmpParent, 'gspc-test-run-'));
const summaryFile = join(runTmp, 'summary.txt');
const code = phase('tests', () => {
  const r = spawnSync(
    process.execPath,
    [
      ...(unit ? ['--import', 'tsx/esm'] : ['--enable-source-maps']),
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${join(root, 'scripts', 'test-reporter.mjs')}`,
      `--test-reporter-destination=${summaryFile}`,
      ...(unit ? files : files.map(compiled)),
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TMPDIR: runTmp } },
  );
  if (r.error) fail(`node --test could not start: ${r.error.message}`);
  return r.status ?? 1;
});
const summary = existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : '';
rmSync(runTmp, { recursive: true, force: true });
const line = /^(\d+) passed, (\d+) failed, (\d+) skipped$/m.exec(summary.trimEnd().split('\n').at(-1) ?? '');
if (!line) fail(`the test reporter wrote no summary (node --test exited ${code})`);

process.stdout.write(
  `\n${unit ? 'unit set' : 'npm test'}: ${files.length} files, ${concurrency} at a time; ${phases.join(', ')}\n`,
);
process.stdout.write(summary);
process.exit(code !== 0 || line[2] !== '0' ? 1 : 0);
