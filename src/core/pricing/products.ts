/**
 * The metered products (specification, "Metered products"): what each path sells, its atomic
 * prices (6 decimals) and what it is never. Product ids are `gspc.<suffix>` with the suffix the
 * specification names; prices are integers in atomic units, kept as bigint so no float touches
 * an amount.
 */
import { CARD_V0_SCHEMA } from '../evidence/card-v0-schemas.js';

export type ProductKey = 'free_door' | 'request_attestation' | 'evidence_bundle' | 'eunomia_data';

export interface Product {
  key: ProductKey;
  path: string;
  product_id: string;
  sku_id: string;
  /** Billing unit of the `svc` block. */
  per: 'request' | 'bundle' | 'feed-pull';
  /** Schema id of the delivered artefact. */
  schema: string;
  normalAtomic: bigint;
  promoAtomic: bigint;
  /** Whether the promo window applies (the free door is always STANDARD). */
  promoEligible: boolean;
  description: string;
  deliverable: string;
}

/** What no product is, in every `svc.never` (specification, "svc block"). */
export const NEVER = ['rank', 'certificate', 'grade', 'score-sale', 'conformity determination', 'score'] as const;

export const PRODUCTS: readonly Product[] = [
  {
    key: 'free_door',
    path: '/api/free-door',
    product_id: 'gspc.free_door',
    sku_id: 'request_attestation',
    per: 'request',
    schema: 'svc.free-door/0.1',
    normalAtomic: 0n,
    promoAtomic: 0n,
    promoEligible: false,
    description: 'The free door: the board totals and the signed root pointers, free forever.',
    deliverable:
      'the board totals and the signed root pointers; free forever (the same content answers 200 at /api/gspc and /root.json)',
  },
  {
    key: 'request_attestation',
    path: '/api/request-attestation',
    product_id: 'gspc.request_attestation',
    sku_id: 'request_attestation',
    per: 'request',
    schema: CARD_V0_SCHEMA,
    normalAtomic: 20_000n,
    promoAtomic: 10_000n,
    promoEligible: true,
    description: 'A commission receipt for one subject plus up to 24 card-v1 references from the dated card matrix.',
    deliverable:
      'a signed commission receipt (card-v0, COMMISSIONED) for one subject, reserving up to 24 already-signed card-v1 references with their inclusion proofs; no fresh run',
  },
  {
    key: 'evidence_bundle',
    path: '/api/evidence-bundle',
    product_id: 'gspc.evidence_bundle',
    sku_id: 'evidence_bundle',
    per: 'bundle',
    schema: 'svc.evidence-bundle/0.1',
    normalAtomic: 250_000_000n,
    promoAtomic: 10_000n,
    promoEligible: true,
    description:
      'The bench JSON, its detached Ed25519 signature and an OSCAL 1.1.0 assessment-results wrapper, assembled from already-signed cards.',
    deliverable:
      'an evidence bundle for one obligation: OSCAL 1.1.0 assessment-results, the relevant signed cards, the bench JSON with its detached Ed25519 signature and a signed manifest card; relevant-to, never a determination',
  },
  {
    key: 'eunomia_data',
    path: '/api/eunomia-data',
    product_id: 'gspc.issuance',
    sku_id: 'issuance',
    per: 'feed-pull',
    schema: 'svc.eunomia-data/0.2',
    normalAtomic: 20_000n,
    promoAtomic: 10_000n,
    promoEligible: true,
    description: 'A signed feed of enforcement and measurement artefacts already on the public root.',
    deliverable:
      'a signed feed (signals, first_fine_watch, root, card_index) of artefacts already on the public root; data only',
  },
];

export function productByKey(key: ProductKey): Product {
  const p = PRODUCTS.find((x) => x.key === key);
  if (!p) throw new RangeError(`unknown product ${key}`);
  return p;
}
