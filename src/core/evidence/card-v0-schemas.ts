/**
 * The JSON Schemas (2020-12) of the card-v0 records this service signs: the commission receipt
 * of `/api/request-attestation` and the manifest card of `/api/evidence-bundle`. Their `schema`
 * field is a URL reference that the service itself resolves (`/schemas/card-v0/<name>.json`,
 * relative to the origin the record came from, whose did:web signed it), not a placeholder host
 * (issue 28). Served by the registry; tests validate every artefact against them.
 */
export const CARD_V0_SCHEMA = '/schemas/card-v0/commission-receipt.json';
export const BUNDLE_MANIFEST_SCHEMA = '/schemas/card-v0/evidence-bundle-manifest.json';

const HEX64 = { type: 'string', pattern: '^[0-9a-f]{64}$' } as const;
const INSTANT = { type: 'string', format: 'date-time' } as const;
const DIGEST = {
  type: 'object',
  required: ['sha256', 'preimage'],
  properties: { sha256: HEX64, preimage: { type: 'string' } },
} as const;
const SEAL = {
  sha256: {
    ...HEX64,
    description: 'SHA-256 of the RFC 8785 bytes of the record without sha256, sig_ed25519, unsigned_reason',
  },
  sig_ed25519: {
    oneOf: [{ type: 'string', pattern: '^[0-9a-f]{128}$' }, { type: 'null' }],
    description: 'Ed25519 over the same bytes, by `signer`; null when the key was unhealthy',
  },
  unsigned_reason: { type: 'string' },
  signer: { type: 'string', description: 'the DID URL of the signing key' },
  as_of: INSTANT,
  subject: { type: 'string' },
} as const;
const ROOT = {
  type: 'object',
  required: ['url', 'merkle_root', 'leaf_count', 'as_of'],
  properties: {
    url: { type: 'string' },
    merkle_root: HEX64,
    leaf_count: { type: 'integer', minimum: 0 },
    as_of: INSTANT,
  },
} as const;
const COMMISSIONED_FOR = {
  type: 'object',
  required: ['resource'],
  properties: {
    resource: { type: 'string' },
    payer: { type: 'string' },
    invoice_ref: { type: 'string' },
    commissioned_by: { type: 'string' },
  },
  additionalProperties: false,
} as const;

export const CARD_V0_SCHEMAS: Readonly<Record<string, Record<string, unknown>>> = {
  [CARD_V0_SCHEMA]: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: CARD_V0_SCHEMA,
    title: 'card-v0 commission receipt (surface ras.commission)',
    type: 'object',
    required: ['schema', 'surface', 'subject', 'as_of', 'signer', 'payload', 'unmeasured', 'sha256', 'sig_ed25519'],
    properties: {
      ...SEAL,
      schema: { const: CARD_V0_SCHEMA },
      surface: { const: 'ras.commission' },
      payload: {
        type: 'object',
        required: ['status', 'axis', 'root', 'reserve', 'fresh_run', 'commissioned_for'],
        properties: {
          status: { const: 'COMMISSIONED' },
          axis: { type: ['string', 'null'] },
          root: ROOT,
          reserve: {
            type: 'array',
            maxItems: 24,
            items: {
              type: 'object',
              required: ['sha256', 'url', 'surface', 'subject', 'axis', 'as_of', 'root_inclusion'],
              properties: {
                sha256: HEX64,
                url: { type: 'string' },
                surface: { type: 'string' },
                subject: { type: 'string' },
                axis: { type: 'string' },
                as_of: INSTANT,
                root_inclusion: { type: ['object', 'null'] },
              },
            },
          },
          fresh_run: { const: 'UNMEASURED' },
          commissioned_for: COMMISSIONED_FOR,
        },
      },
      unmeasured: { type: 'array', items: { enum: ['fresh_run', 'root_inclusion'] }, contains: { const: 'fresh_run' } },
    },
    additionalProperties: false,
  },
  [BUNDLE_MANIFEST_SCHEMA]: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: BUNDLE_MANIFEST_SCHEMA,
    title: 'card-v0 evidence bundle manifest (surface evidence.bundle)',
    type: 'object',
    required: ['schema', 'surface', 'subject', 'as_of', 'signer', 'payload', 'unmeasured', 'sha256', 'sig_ed25519'],
    properties: {
      ...SEAL,
      schema: { const: BUNDLE_MANIFEST_SCHEMA },
      surface: { const: 'evidence.bundle' },
      payload: {
        type: 'object',
        required: ['obligation', 'subject', 'relation', 'root', 'components', 'commissioned_for'],
        properties: {
          obligation: {
            type: 'object',
            required: ['id', 'control_id', 'sha256'],
            properties: { id: { type: 'string' }, control_id: { type: 'string' }, sha256: HEX64 },
          },
          subject: { type: ['string', 'null'] },
          relation: { type: 'string' },
          root: ROOT,
          components: {
            type: 'object',
            required: ['oscal', 'bench', 'cards', 'root_inclusion'],
            properties: {
              oscal: DIGEST,
              bench: DIGEST,
              cards: { type: 'array', items: HEX64 },
              root_inclusion: DIGEST,
            },
          },
          commissioned_for: COMMISSIONED_FOR,
        },
      },
      unmeasured: {
        type: 'array',
        items: { enum: ['fresh_run', 'conformity_determination', 'cards_root_inclusion'] },
      },
    },
    additionalProperties: false,
  },
};
