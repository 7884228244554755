import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root: the nearest folder above this file holding package.json. Found by walking
 * up, not by a fixed `../..`, because `npm test` runs the tests compiled to build/js/test/ (no
 * package.json there) and `npm run test:unit` runs them from test/.
 */
export const repoRoot = ((): string => {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
  }
})();

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
