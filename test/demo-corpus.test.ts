import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { generate } from '../demo/generate.js';
import { demoCorpus, tempDir } from './helpers/tmp.js';

function files(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(dir, join(prefix, e.name)) : [join(prefix, e.name)]))
    .sort();
}

describe('demo corpus', () => {
  it('is exactly what the committed generator writes', () => {
    const out = join(tempDir(), 'corpus');
    generate(out);
    assert.deepEqual(files(out), files(demoCorpus));
    for (const f of files(out)) assert.deepEqual(readFileSync(join(out, f)), readFileSync(join(demoCorpus, f)), f);
  });
});
