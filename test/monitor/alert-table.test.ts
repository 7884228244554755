/**
 * docs/operations.md's table of monitor alerts names exactly the alerts the monitor raises, so
 * an operator paged with a code finds what it means and what to do.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { ALERT_KINDS } from '../../src/core/monitor/log-watch.js';
import { repoRoot } from '../helpers/repo.js';

it("docs/operations.md's monitor alert table has one row per alert code, and no other", () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Watching a board over time'), doc.indexOf('## Status documents'));
  const table = section.slice(section.indexOf('| alert | what it means | what to do |'));
  const rows = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual([...rows].sort(), [...ALERT_KINDS].sort());
});
