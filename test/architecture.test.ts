/** Dependencies point inward: src/core imports nothing from the rest of src and does no I/O. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/shared.js';

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []);
}

describe('architecture', () => {
  const core = join(repoRoot, 'src', 'core');
  it('src/core imports only core modules, pure node built-ins and its chosen libraries', () => {
    const allowed = /^(\.{1,2}\/|node:(crypto|buffer)$|canonicalize$|jose$)/;
    for (const f of tsFiles(core)) {
      for (const [, spec] of readFileSync(f, 'utf8').matchAll(/from '([^']+)'/g)) {
        assert.match(spec!, allowed, `${relative(repoRoot, f)} imports ${spec}`);
        if (spec!.startsWith('.')) assert.ok(!join(f, '..', spec!).startsWith(join(repoRoot, 'src')) || join(f, '..', spec!).startsWith(core), `${relative(repoRoot, f)} reaches outside core: ${spec}`);
      }
    }
  });
  it('src/core reads no clock, randomness or environment', () => {
    for (const f of tsFiles(core)) {
      const text = readFileSync(f, 'utf8');
      assert.doesNotMatch(text, /Date\.now\(|new Date\(\)|Math\.random\(|process\.env/, relative(repoRoot, f));
    }
  });
});
