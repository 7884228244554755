/**
 * The layer order of src/, written once. test/architecture.test.ts enforces it and
 * docs/architecture.md shows it as a diagram (the test checks that the diagram's arrows are
 * exactly these rows, so change the two together).
 *
 * Lowest first. A unit may import only from the units named in its own `mayImport` (and from
 * itself); nothing is inherited from the rows below. A folder or a file directly in src/ that
 * no row owns is a violation: add new folders here deliberately.
 */

export interface Layer {
  /** The unit's name, as used in `mayImport` and in the diagram. */
  readonly name: string;
  /** What the unit owns: `src/<folder>/` (everything below it) or a file directly in src/. */
  readonly owns: readonly string[];
  /** The units this one may import from, besides itself. */
  readonly mayImport: readonly string[];
}

export const LAYERS: readonly Layer[] = [
  { name: 'core', owns: ['src/core/'], mayImport: [] },
  { name: 'corpus', owns: ['src/corpus/'], mayImport: ['core'] },
  { name: 'store', owns: ['src/store/'], mayImport: ['core'] },
  { name: 'import', owns: ['src/import/'], mayImport: ['core', 'corpus'] },
  { name: 'release', owns: ['src/release/'], mayImport: ['core', 'corpus'] },
  { name: 'keys', owns: ['src/keys/'], mayImport: ['core', 'release'] },
  { name: 'verify', owns: ['src/verify/'], mayImport: ['core', 'corpus', 'release'] },
  { name: 'status', owns: ['src/status/'], mayImport: ['core', 'verify'] },
  { name: 'payments', owns: ['src/payments/'], mayImport: ['core', 'store', 'release'] },
  { name: 'export', owns: ['src/export/'], mayImport: ['core', 'corpus', 'release', 'status', 'import'] },
  {
    name: 'serve',
    owns: ['src/serve/'],
    mayImport: ['core', 'corpus', 'store', 'release', 'keys', 'verify', 'status', 'payments'],
  },
  {
    name: 'web',
    owns: ['src/web/'],
    mayImport: ['core', 'corpus', 'store', 'release', 'keys', 'verify', 'status', 'payments', 'serve'],
  },
  {
    name: 'http',
    owns: ['src/http/'],
    mayImport: ['core', 'corpus', 'store', 'release', 'keys', 'verify', 'status', 'payments', 'serve', 'web'],
  },
  {
    name: 'surfaces',
    owns: ['src/surfaces/'],
    mayImport: ['core', 'corpus', 'store', 'release', 'keys', 'verify', 'status', 'payments', 'serve', 'web'],
  },
  {
    name: 'pages',
    owns: ['src/pages/'],
    mayImport: ['core', 'corpus', 'store', 'release', 'keys', 'verify', 'status', 'payments', 'serve', 'web'],
  },
  {
    name: 'root',
    owns: ['src/app.ts', 'src/config.ts', 'src/mirror.ts', 'src/service.ts'],
    mayImport: [
      'core',
      'corpus',
      'store',
      'release',
      'keys',
      'verify',
      'status',
      'payments',
      'serve',
      'web',
      'http',
      'surfaces',
      'pages',
      'export',
    ],
  },
  {
    name: 'cli',
    owns: ['src/cli/'],
    mayImport: [
      'core',
      'corpus',
      'store',
      'import',
      'release',
      'keys',
      'verify',
      'status',
      'payments',
      'serve',
      'web',
      'http',
      'surfaces',
      'pages',
      'root',
      'export',
    ],
  },
];

/** The only places that read `process.env`: configuration is decided in one place. */
export const ENV_READERS: readonly string[] = ['src/cli/', 'src/config.ts'];

/**
 * What src/core may import besides src/core itself: modules that do no I/O and read no clock,
 * randomness or environment. `only` limits a module to the named runtime imports (the rest of
 * the module does I/O or reads the clock); `except` names runtime imports that are refused.
 * Type-only imports are always allowed (they do nothing at run time).
 */
export interface PureModule {
  readonly why: string;
  readonly only?: readonly string[];
  readonly except?: readonly string[];
}

export const CORE_PURE_MODULES: Readonly<Record<string, PureModule>> = {
  'node:crypto': {
    why: 'hashing, Ed25519 signatures and key objects',
    except: [
      'randomBytes',
      'randomUUID',
      'randomInt',
      'randomFill',
      'randomFillSync',
      'getRandomValues',
      'generateKeyPair',
      'generateKeyPairSync',
      'generateKey',
      'generateKeySync',
      'generatePrime',
      'generatePrimeSync',
    ],
  },
  'node:buffer': { why: 'bytes' },
  canonicalize: { why: 'RFC 8785 serialisation, a pure function of its argument' },
  jose: {
    why: 'compact JWS verification with a key passed in (createRemoteJWKSet fetches, jwtVerify reads the clock, generate* and the encrypters draw randomness)',
    only: ['compactVerify', 'decodeProtectedHeader', 'errors'],
  },
};
