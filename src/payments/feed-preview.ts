/**
 * The free previews of the free door and the `eunomia_data` feed (specification, "Product
 * eunomia_data", "Product free_door"), and the example output shape of every product for the
 * bazaar. The regulation streams are read from the release's regulation feed when it is passed in;
 * a stream whose source was not read says so in `unreadable`, with a null value: a null is an
 * unread value, never an empty one.
 */
import { CARD_V0_SCHEMA } from '../core/evidence/card-v0-schemas.js';
import type { ProductKey } from '../core/pricing/products.js';
import {
  regulationStreams,
  type RegulationFile,
  type RegulationStreamValue,
  type Stream,
} from '../core/status/regulation-feed.js';
import type { PreviewRelease } from './attestation-preview.js';

/** A free summary of a regulation stream: where it is read, its version pin and how many entries the paid feed carries. */
function summary<T>(s: Stream<RegulationStreamValue<T>>): Stream<Record<string, unknown>> {
  if (s.value === null) return { value: null, unreadable: s.unreadable };
  const { url, version, verified_as_of, entries } = s.value;
  return { value: { url, version, verified_as_of, entries: entries.length }, unreadable: null };
}

/**
 * The free preview of the feed. `regulation`: the release's regulation feed (corpus
 * `status/regulation.json`), null when the release has none, absent when it was not read.
 */
export function eunomiaPreview(
  release: PreviewRelease & { merkle_root: string },
  baseUrl: string,
  regulation?: RegulationFile | null,
): Record<string, unknown> {
  const notRead = (what: string) => ({
    value: null,
    unreadable: `unread: ${what} was not read, so it is not published in this preview`,
  });
  const streams = regulation === undefined ? undefined : regulationStreams(regulation, baseUrl);
  return {
    lane: 'commercial-data',
    data_only: true,
    streams: {
      signals: streams ? summary(streams.signals) : notRead('the regulation feed (/api/regulation)'),
      first_fine_watch: streams
        ? summary(streams.first_fine_watch)
        : notRead('the first-fine watch of the regulation feed (/api/regulation)'),
      root: {
        value: {
          url: `${baseUrl}/root.json`,
          merkle_root: release.merkle_root,
          leaf_count: release.root.leaf_count,
          as_of: release.root.as_of,
        },
        unreadable: null,
      },
      card_index: {
        value: { url: `${baseUrl}/cards/index.json`, active_cards: release.active.length },
        unreadable: null,
      },
    },
    free_for: ['journalists', 'regulators', 'researchers', 'anyone verifying a card'],
  };
}

export function freeDoorPreview(baseUrl: string): Record<string, unknown> {
  return {
    schema: 'svc.free-door/0.1',
    price_usdc: 0,
    board: `${baseUrl}/api/gspc`,
    root: `${baseUrl}/root.json`,
    verify: `${baseUrl}/api/verify`,
  };
}

/** Extra `svc` fields of the free door (specification: free_preview, free_equivalents, why_402). */
export function freeDoorSvc(baseUrl: string): Record<string, unknown> {
  return {
    free_equivalents: [`${baseUrl}/api/gspc`, `${baseUrl}/root.json`, `${baseUrl}/interop/card-root-latest.json`],
    why_402:
      'The free door answers with a zero-amount x402 challenge so that agents can exercise the payment handshake at no cost; the same content answers 200 at /api/gspc and /root.json.',
  };
}

/**
 * The shape of each product's paid response, for `extensions.bazaar.info.output.example`: the
 * artefact's top-level members exactly as src/core/evidence builds them, nested members only in
 * part (test/artefacts checks both against a produced artefact): the example rides in every
 * challenge and its base64 PAYMENT-REQUIRED header, which clients cap (Node: 16 KiB).
 */
export function outputExample(key: ProductKey, baseUrl: string): Record<string, unknown> {
  const hex = '<64 hex>';
  const sig = '<hex or null>';
  const at = '<ISO 8601 UTC>';
  const signer = '<did>#board-attestation-1';
  const root = { url: '/root.json', merkle_root: hex, leaf_count: 1 };
  const commissioned = { resource: '<path and query>', payer: '<address>' };
  switch (key) {
    case 'free_door':
      return freeDoorPreview(baseUrl);
    case 'request_attestation':
      return {
        sha256: hex,
        schema: CARD_V0_SCHEMA,
        surface: 'ras.commission',
        subject: '<subject>',
        as_of: at,
        signer,
        payload: {
          status: 'COMMISSIONED',
          axis: null,
          root,
          reserve: [
            { sha256: hex, url: '/cards/<id>.json', root_inclusion: { leaf_index: 0, leaf_count: 1, proof: [hex] } },
          ],
          fresh_run: 'UNMEASURED',
          commissioned_for: commissioned,
        },
        unmeasured: ['fresh_run'],
        sig_ed25519: sig,
      };
    case 'evidence_bundle':
      return {
        schema: 'svc.evidence-bundle/0.1',
        kind: 'bundle',
        as_of: at,
        obligation: { id: '<id>', control_id: '<control id>' },
        subject: null,
        relation: 'relevant-to, never a determination',
        oscal: { 'assessment-results': { metadata: { 'oscal-version': '1.1.0' }, results: [] } },
        cards: [{ schema: 'card-v1', sha256: hex }],
        root_inclusion: [{ leaf_index: 0, proof: [hex] }],
        root,
        bench: { json: {}, sha256: hex, sig_ed25519: sig, kid: signer, preimage: 'RFC 8785 of bench.json' },
        manifest_card: { sha256: hex, surface: 'evidence.bundle', payload: { components: {} }, sig_ed25519: sig },
        unmeasured: ['fresh_run', 'conformity_determination'],
      };
    case 'eunomia_data':
      return {
        sha256: hex,
        schema: 'svc.eunomia-data/0.2',
        kind: 'feed',
        as_of: at,
        lane: 'commercial-data',
        data_only: true,
        signer,
        blocks: {
          signals: { value: null, unreadable: '<reason>' },
          first_fine_watch: { value: null, unreadable: '<reason>' },
          root: { value: { root_sha256: hex, merkle_root: hex, leaf_count: 1, sig_ed25519: sig }, unreadable: null },
          card_index: {
            value: { active_cards: 1, cards: [{ sha256: hex, url: '/cards/<id>.json', signed: true }] },
            unreadable: null,
          },
        },
        commissioned_for: commissioned,
        sig_ed25519: sig,
      };
  }
}
