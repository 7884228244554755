/**
 * The insurability evidence pack (`svc.insurability-evidence-pack/0.1`, served at
 * `GET /api/insurability-pack`; specification, "Insurability evidence pack"): an unsigned
 * template, not a trigger and not an attestation. Every count in it is derived from what the
 * service serves (the card matrix, the reported figures, the regulation feed), never typed; an
 * unread source is null with its reason. Pure: the time and the live state are passed in.
 */

export const INSURABILITY_PACK_SCHEMA = 'svc.insurability-evidence-pack/0.1';
export const SIGNED_SURFACE_SCHEMA = 'svc.signed-surface/0.1';
/** Specification, "Limits": right of reply, through the contact in the pack. */
export const RIGHT_OF_REPLY_DAYS = 14;
/** Specification, "Limits": the external watchdog's period (10 minutes). */
export const WATCHDOG_PERIOD_SECONDS = 600;

/** Corpus `status/owners.json`, validated (src/corpus/status/owners.ts). */
export interface OwnersFile {
  measurement_director: string;
  /** E-mail address; shape-checked at load. */
  contact: string;
  note?: string;
}

/** The x402 rail as configured (src/payments/rail-config.ts), the parts the pack names. */
export interface MarketRail {
  network: string;
  asset: string;
  pay_to_configured: boolean;
  facilitator_configured: boolean;
}

export interface InsurabilityInput {
  /** When the pack is served (ISO 8601 UTC). */
  ts: string;
  /** The board's `totals.public_count` ('N axis · M measured'). */
  public_count: string;
  /** Active cells of the served card matrix (`/signed/card-matrix.json`). */
  measured_cells: number;
  /** Figures in `/api/reported`; null when the release publishes none. */
  reported_figures: number | null;
  /** The regulation feed's pin; null when the release publishes none. */
  regulation: { version: string; verified_as_of: string } | null;
  /** The payment rail; null when this service has none. */
  market: MarketRail | null;
  /** The board signer: its key id, DID and health. */
  signing: { did: string; kid: string; healthy: boolean; reason?: string };
  owners: OwnersFile | undefined;
  /** Obligation ids the evidence bundle serves (corpus `obligations.json`). */
  obligations: readonly string[];
}

/** The six stated limits of the specification, in its order. */
export const INSURABILITY_LIMITATIONS = [
  'Measurement, not certification: nothing in this pack is a certificate, a rating or a conformity determination, and the pack itself is not an attestation.',
  'The market rail (x402 payments) is development grade.',
  'There is no live human-baseline capture: human-vs-AI figures are in-lane entries, never board results.',
  "This response carries no independent timestamp: ts is the service's own clock; only the public root has a timestamp proof.",
  'Automated re-measurement after a source change is not implemented.',
  `Right of reply: a measured party may reply within ${RIGHT_OF_REPLY_DAYS} days through the contact address in named_owners.`,
] as const;

const OWNERS_ABSENT_REASON =
  "unread: this release's corpus has no status/owners.json, so no measurement director or contact address is named";
const REPORTED_ABSENT_REASON = "unread: this release's corpus has no status/reported.json";
const REGULATION_ABSENT_REASON = "unread: this release's corpus has no status/regulation.json";
const MARKET_ABSENT_REASON = 'unread: this service runs without a payment rail (no metered products are served)';

export function insurabilityPack(input: InsurabilityInput): Record<string, unknown> {
  const { signing, owners } = input;
  return {
    schema: INSURABILITY_PACK_SCHEMA,
    ts: input.ts,
    purpose:
      'An unsigned template for insurers and underwriters: what this service measures, where each figure comes from, which controls are active and who answers for them. ' +
      'It is not a trigger, not an attestation and not a certificate.',
    system_transparency: {
      what_is_measured:
        'Deterministic measurements of AI models: model comparisons on benchmarks and checked facts, graded by deterministic predicates, never by a model acting as judge. ' +
        `The board publishes ${input.public_count}.`,
      board: '/api/gspc',
      methodology: '/methodology',
      verify: '/gspc-verify',
    },
    data_lineage: {
      measured_cells: input.measured_cells,
      measured_cells_source: '/signed/card-matrix.json',
      reported_figures: input.reported_figures,
      reported_figures_source: '/api/reported',
      ...(input.reported_figures === null && { reported_figures_reason: REPORTED_ABSENT_REASON }),
      reported_figures_note:
        'Reported figures are not measurements of this service and never enter the measured cells or the board totals.',
      regulation: input.regulation && { ...input.regulation, url: '/api/regulation' },
      ...(input.regulation === null && { regulation_reason: REGULATION_ABSENT_REASON }),
      market: input.market && {
        rail: 'x402',
        x402_version: 2,
        scheme: 'exact',
        mode: 'live',
        network: input.market.network,
        asset: input.market.asset,
        pay_to_configured: input.market.pay_to_configured,
        facilitator_configured: input.market.facilitator_configured,
        grade: 'development grade',
        note: 'Payment never creates a MEASURED cell, and a grade is never sold.',
      },
      ...(input.market === null && { market_reason: MARKET_ABSENT_REASON }),
    },
    active_controls: {
      signing_chain: {
        board_key_id: signing.kid,
        did: signing.did,
        state: signing.healthy ? 'HEALTHY' : 'UNHEALTHY',
        ...(!signing.healthy && signing.reason !== undefined && { reason: signing.reason }),
        did_document: '/.well-known/did.json',
        root: '/root.json',
      },
      watchdog: {
        endpoint: '/api/oracle-fleet',
        period_seconds: WATCHDOG_PERIOD_SECONDS,
        kind: "external dead-man's switch: a missed heartbeat shows as stale",
      },
      corrections_ledger: { endpoint: '/api/corrections' },
      drift_detection: {
        state: 'NOT_IMPLEMENTED',
        note: 'No drift detection runs: a changed source is not re-measured automatically.',
      },
    },
    named_owners: {
      measurement_director: owners?.measurement_director ?? null,
      signing_key_id: signing.kid,
      professional_indemnity: 'UNVERIFIED',
      contact: owners?.contact ?? null,
      right_of_reply_days: RIGHT_OF_REPLY_DAYS,
      ...(owners === undefined && { reason: OWNERS_ABSENT_REASON }),
      ...(owners?.note !== undefined && { note: owners.note }),
    },
    bundle: [
      {
        component: 'measurement-receipt',
        title: 'A verified measurement receipt',
        path: '/api/request-attestation?subject={subject}',
        verify: '/api/receipts/verify',
      },
      { component: 'template', title: 'This template', path: '/api/insurability-pack' },
      {
        component: 'provision-text',
        title: 'The version-pinned provision text',
        path: '/api/regulation',
        version: input.regulation?.version ?? null,
      },
      {
        component: 'control-crosswalk',
        title: 'A control crosswalk over the board',
        path: '/api/evidence-bundle?obligation={obligation}',
        obligations: [...input.obligations],
      },
      { component: 'corrections-excerpt', title: 'A corrections excerpt', path: '/api/corrections' },
    ],
    limitations: [...INSURABILITY_LIMITATIONS],
    signature_envelope: {
      schema: SIGNED_SURFACE_SCHEMA,
      signed: false,
      sig_ed25519: null,
      kid: null,
      note: 'This template is unsigned and is not an attestation. The signed evidence is the metered bundle, assembled from already-signed cards; every signature in it verifies for free.',
      metered_bundle: '/api/evidence-bundle?obligation={obligation}&bundle=1',
    },
  };
}
