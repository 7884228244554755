import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { repoRoot } from './repo.js';

/** A fresh temporary directory, removed when the test file finishes. */
export function tempDir(prefix = 'gspc-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export const demoCorpus = join(repoRoot, 'demo', 'corpus');

/** A writable copy of the bundled demo corpus. */
export function demoCopy(): string {
  const dir = join(tempDir(), 'corpus');
  cpSync(demoCorpus, dir, { recursive: true });
  return dir;
}

/** Every file under `dir`, recursively (a test looking for what must not be on disk). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}
