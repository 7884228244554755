/**
 * A node:test reporter (issue 14) that prints, once the run is over:
 *
 *   - every skipped test with its reason (`skipped: <file> › <suite> › <test>: <reason>`), and
 *     every todo test the same way (`todo: …`);
 *   - the ten slowest test files (wall time of each file's process, as node's runner measures it);
 *   - one summary line, alone on its line, exactly `N passed, N failed, N skipped` (a CI parser
 *     reads it; it is the last line).
 *
 * It runs beside the spec reporter (scripts/test.mjs passes both), so the human-readable output
 * stays. Counting: a test is a leaf `it`/`test` (suites are not counted, as in node's own
 * summary); a failure of a whole file (an import error, a failing file-level hook, a file that
 * timed out) counts as one failed test; a cancelled test is a failed test; a skipped suite
 * (`describe(…, { skip })`, whose tests node never reports) counts as one skipped test and says
 * so; todo tests are counted as skipped (they never fail the run).
 *
 * GSPC_TEST_TIMINGS=<path> also writes every file's duration (ms) there as JSON, for the
 * measurements of docs/performance.md.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const cwd = process.cwd();
// A compiled test file (build/js/test/x.test.js, see scripts/test.mjs) is named by its source.
const rel = (file) => (file ? relative(cwd, file).replace(/^build\/js\/(.*)\.js$/, '$1.ts') : '(no file)');

export default async function* summary(source) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const skips = [];
  const fileMs = new Map();
  // The open tests of each file by nesting level: the `suite › test` path of a skip, and the
  // failures counted before each started.
  const stacks = new Map();

  for await (const { type, data } of source) {
    if (type === 'test:start') {
      const stack = stacks.get(data.file) ?? [];
      stack.length = data.nesting;
      stack.push({ name: data.name, failedAtStart: failed });
      stacks.set(data.file, stack);
      continue;
    }
    if (type === 'test:complete' && data.nesting === 0 && data.file && data.name === data.file) {
      fileMs.set(rel(data.file), data.details?.duration_ms ?? 0);
      continue;
    }
    if (type !== 'test:pass' && type !== 'test:fail') continue;

    const isFile = data.nesting === 0 && data.file !== undefined && data.name === data.file;
    const isSuite = data.details?.type === 'suite';
    const open = stacks.get(data.file) ?? [];
    const path = [...open.slice(0, data.nesting).map((t) => t.name), data.name].join(' › ');
    const where = isFile ? rel(data.file) : `${rel(data.file)} › ${path}`;

    if (data.todo !== undefined && data.todo !== false) {
      skipped += 1;
      skips.push(`todo: ${where}${isSuite ? ' (suite)' : ''}: ${data.todo === true ? '(no reason given)' : data.todo}`);
    } else if (data.skip !== undefined && data.skip !== false) {
      skipped += 1;
      skips.push(
        `skipped: ${where}${isSuite ? ' (whole suite)' : ''}: ${data.skip === true ? '(no reason given)' : data.skip}`,
      );
    } else if (isSuite) {
      // A suite passes or fails with its tests, which are counted themselves; but when its own
      // hook failed and no test below it was counted as failed (an `after` that threw once all
      // passed), the suite's failure is counted here so it cannot vanish from the line.
      const failedAtStart = open[data.nesting]?.name === data.name ? open[data.nesting].failedAtStart : undefined;
      if (type === 'test:fail' && data.details?.error?.failureType !== 'subtestsFailed' && failed === failedAtStart)
        failed += 1;
    } else if (type === 'test:pass') {
      if (!isFile) passed += 1;
    } else {
      failed += 1;
    }
  }

  const lines = [''];
  if (skips.length > 0)
    lines.push(`${skips.length} skipped or todo, with the reasons:`, ...skips.map((s) => `  ${s}`), '');
  const slowest = [...fileMs].sort((a, b) => b[1] - a[1]).slice(0, 10);
  if (slowest.length > 0) {
    lines.push(
      'slowest test files:',
      ...slowest.map(([f, ms]) => `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${f}`),
      '',
    );
  }
  if (process.env.GSPC_TEST_TIMINGS)
    writeFileSync(process.env.GSPC_TEST_TIMINGS, `${JSON.stringify(Object.fromEntries(fileMs), null, 1)}\n`);
  lines.push(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  yield `${lines.join('\n')}\n`;
}
