/**
 * The free previews of the free door and the `eunomia_data` feed (specification, "Product
 * eunomia_data", "Product free_door"), and the example output shape of every product for the
 * bazaar. A stream whose source this service does not publish yet says so in `unreadable`, with a
 * null value: a null is an unread value, never an empty one.
 */
import type { ProductKey } from '../core/pricing/products.js';
import type { PreviewRelease } from './attestation-preview.js';

export function eunomiaPreview(release: PreviewRelease & { merkle_root: string }, baseUrl: string): Record<string, unknown> {
  const notYet = (what: string) => ({ value: null, unreadable: `${what} is not published by this service yet, so the stream is not read` });
  return {
    lane: 'commercial-data',
    data_only: true,
    streams: {
      signals: notYet('the regulation feed (/api/regulation)'),
      first_fine_watch: notYet('the first-fine watch of the regulation feed'),
      root: { value: { url: `${baseUrl}/root.json`, merkle_root: release.merkle_root, leaf_count: release.root.leaf_count, as_of: release.root.as_of }, unreadable: null },
      card_index: { value: { url: `${baseUrl}/cards/index.json`, active_cards: release.active.length }, unreadable: null },
    },
    free_for: ['journalists', 'regulators', 'researchers', 'anyone verifying a card'],
  };
}

export function freeDoorPreview(baseUrl: string): Record<string, unknown> {
  return { schema: 'svc.free-door/0.1', price_usdc: 0, board: `${baseUrl}/api/gspc`, root: `${baseUrl}/root.json`, verify: `${baseUrl}/api/verify` };
}

/** Extra `svc` fields of the free door (specification: free_preview, free_equivalents, why_402). */
export function freeDoorSvc(baseUrl: string): Record<string, unknown> {
  return {
    free_equivalents: [`${baseUrl}/api/gspc`, `${baseUrl}/root.json`, `${baseUrl}/interop/card-root-latest.json`],
    why_402: 'The free door answers with a zero-amount x402 challenge so that agents can exercise the payment handshake at no cost; the same content answers 200 at /api/gspc and /root.json.',
  };
}

/** The shape of each product's paid response, for `extensions.bazaar.info.output.example`. */
export function outputExample(key: ProductKey, baseUrl: string): Record<string, unknown> {
  switch (key) {
    case 'free_door': return freeDoorPreview(baseUrl);
    case 'request_attestation': return { schema: 'card-v0', surface: 'ras.commission', subject: '<subject>', payload: { status: 'COMMISSIONED', reserve: [{ sha256: '<card sha256>', url: '/cards/<id>.json', inclusion_proof: {} }], fresh_run: 'UNMEASURED' }, sig_ed25519: '<hex or null>', unmeasured: ['fresh_run'] };
    case 'evidence_bundle': return { schema: 'svc.evidence-bundle/0.1', kind: 'bundle', oscal: { 'assessment-results': {} }, cards: [], bench: {}, bench_sig_ed25519: '<hex>', manifest_card: { surface: 'evidence.bundle', sig_ed25519: '<hex or null>' } };
    case 'eunomia_data': return { schema: 'svc.eunomia-data/0.2', kind: 'feed', blocks: { signals: null, first_fine_watch: null, root: {}, card_index: {} } };
  }
}
