import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (the folder holding package.json). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Path inside the project's shared folder (`../shared` beside the repository), where the
 * test vectors and harness fixtures live. CI clones the repository with shared/ beside it;
 * a missing folder is a set-up error, so this throws instead of letting a test pass vacuously.
 */
export function sharedPath(...parts: string[]): string {
  const root = process.env.GSPC_SHARED_DIR ?? join(repoRoot, '..', 'shared');
  const p = join(root, ...parts);
  if (!existsSync(p)) {
    throw new Error(`shared test data not found at ${p}: clone the project with shared/ beside it or set GSPC_SHARED_DIR`);
  }
  return p;
}
