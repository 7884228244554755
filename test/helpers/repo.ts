import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the folder holding package.json). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Path inside the repository. The test data is vendored (test/vectors, test/fixtures, schemas),
 * so a missing file is an error in the checkout: this throws instead of letting a test pass
 * vacuously.
 */
export function repoPath(...parts: string[]): string {
  const p = join(repoRoot, ...parts);
  if (!existsSync(p)) throw new Error(`vendored test data not found at ${p}`);
  return p;
}

/** Path under test/vectors (README.md there gives each file's source, licence and assertion). */
export const vectorPath = (...parts: string[]): string => repoPath('test', 'vectors', ...parts);

/** Path under test/fixtures (real harness outputs; README.md there gives sources and licences). */
export const fixturePath = (...parts: string[]): string => repoPath('test', 'fixtures', ...parts);
