/**
 * docs/errors.md lists every error code the service has (issue 37 added two), with the status the
 * one table gives it: a code added to src/core/errors.ts and src/serve/error-body.ts without a
 * line in the documentation fails here, not in a reader's hands.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { STATUS_BY_CODE } from '../../src/serve/error-body.js';
import { repoRoot } from '../helpers/repo.js';

const doc = readFileSync(join(repoRoot, 'docs', 'errors.md'), 'utf8');
/** The first row of each documented code, as its line. */
const rows = new Map<string, string>();
for (const line of doc.split('\n')) {
  const code = /^\| `([a-z_]+)`/.exec(line)?.[1];
  if (code !== undefined && !rows.has(code)) rows.set(code, line);
}

describe('docs/errors.md', () => {
  it('documents every error code of the status table', () => {
    const missing = Object.keys(STATUS_BY_CODE).filter((code) => !rows.has(code));
    assert.deepEqual(missing, [], `codes without a row in docs/errors.md: ${missing.join(', ')}`);
  });

  it('gives the payment codes the status the service answers with', () => {
    for (const code of ['payment_other_resource', 'payment_pending', 'payment_conflict', 'settlement_pending'] as const)
      assert.match(rows.get(code)!, new RegExp(`^\\| \`${code}\` \\| ${STATUS_BY_CODE[code]} \\|`), code);
  });
});
