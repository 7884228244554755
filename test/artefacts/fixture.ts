/**
 * What the artefact tests share: a real, freshly published and signed demo release (through the
 * same ServedState the server uses), the context `produceArtefact` gets from the product route,
 * and checks written independently of the code under test: `canonicalize` for RFC 8785 and
 * node:crypto with the board key resolved from the served DID document.
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import canonicalize from 'canonicalize';
import { buildRoot, rootLeaves } from '../../src/core/evidence/public-root.js';
import { sealCard, type CardBody, type CardFile } from '../../src/core/evidence/card.js';
import { dupInclusionProof } from '../../src/core/evidence/merkle/dup-root.js';
import type { SignerState } from '../../src/core/evidence/signer.js';
import { previewReleaseOf } from '../../src/payments/attestation-preview.js';
import type { ArtefactContext } from '../../src/payments/artefacts.js';
import { demoApp } from '../helpers/app.js';

export const BASE = 'http://localhost:8080';
export const AS_OF = '2026-11-21T12:00:00Z';

const { app, state, signing } = demoApp();
/** The real server over the same release (for posting artefacts to /api/verify). */
export { app };
export const prepared = state.current();
export const loaded = prepared.release;
export const release = { ...previewReleaseOf(loaded), merkle_root: loaded.evidence.root.merkle_root };
export const board = JSON.parse(prepared.boards.get('')!.body.toString('utf8')) as Record<string, unknown>;
/** `/root.json` as served: what a verifier trusts for merkle_root and leaf_count. */
export const rootJson = JSON.parse(prepared.files.get('/root.json')!.body.toString('utf8')) as {
  merkle_root: string;
  leaf_count: number;
  as_of: string;
  sig_ed25519: string;
};
export const rootBytesSha256 = createHash('sha256').update(prepared.files.get('/root.json')!.body).digest('hex');
export const boardKey = signing.inputs.boardKey;
export const did = signing.did;
export const unhealthy: SignerState = {
  healthy: false,
  kid: `${did}#board-attestation-1`,
  reason: 'the key file is readable by others',
};

/** The board key as a buyer resolves it: `publicKeyJwk` of `#board-attestation-1` in `/.well-known/did.json`. */
export const boardPublicKey: KeyObject = (() => {
  const doc = JSON.parse(prepared.files.get('/.well-known/did.json')!.body.toString('utf8')) as {
    verificationMethod: { id: string; publicKeyJwk: Record<string, string> }[];
  };
  const method = doc.verificationMethod.find((m) => m.id === `${did}#board-attestation-1`)!;
  return createPublicKey({ key: method.publicKeyJwk, format: 'jwk' });
})();
export const rawBoardPublicKey = Buffer.from(boardPublicKey.export({ format: 'jwk' }).x!, 'base64url');

/** The proof object exactly as `/cards/<id>.proof.json` serves it (what the product route passes). */
export const proofOf = (sha: string) => {
  const p = prepared.proofFor(sha.slice(0, 16));
  return p ? (JSON.parse(p.body.toString('utf8')) as Record<string, unknown>) : undefined;
};

export function context(over: Partial<ArtefactContext> = {}): ArtefactContext {
  return {
    release,
    obligations: loaded.corpus.obligations,
    boardJson: board,
    regulation: loaded.corpus.status.regulation ?? null,
    proofOf,
    boardKey,
    did,
    baseUrl: BASE,
    asOf: AS_OF,
    commissionedFor: {
      resource: '/api/request-attestation?subject=demo%2Fatlas-70b',
      payer: '0x70997970C51812dc3A010C7d01b50e518d4c79C8',
    },
    ...over,
  };
}

export const sha256Hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
/** RFC 8785 bytes by `canonicalize`, not by the strict form the builders use. */
export const jcs = (v: unknown) => Buffer.from(canonicalize(v)!, 'utf8');

/** The body of a sealed record: everything but the outer fields. */
export function bodyOf(record: Record<string, unknown>): Record<string, unknown> {
  const { sha256: _s, sig_ed25519: _g, unsigned_reason: _u, ...body } = record;
  return body;
}

/** Content address and Ed25519 signature of a sealed record, checked with node:crypto. */
export function sealHolds(
  record: Record<string, unknown>,
  key: KeyObject = boardPublicKey,
): { address: boolean; signature: boolean } {
  const bytes = jcs(bodyOf(record));
  const sig = record.sig_ed25519;
  return {
    address: sha256Hex(bytes) === record.sha256,
    signature: typeof sig === 'string' && verify(null, bytes, key, Buffer.from(sig, 'hex')),
  };
}

/**
 * A release with `n` active signed cards of one subject (more than the reserve holds), with a
 * real root and real proofs, for the cap checks the 36-card demo cannot exercise.
 */
export function wideRelease(n: number): {
  release: ArtefactContext['release'];
  proofOf: ArtefactContext['proofOf'];
  root: { merkle_root: string; leaf_count: number };
} {
  const cards: CardFile[] = Array.from(
    { length: n },
    (_, i): CardFile =>
      sealCard(
        {
          schema: 'card-v1',
          surface: 'board.measurement',
          subject: 'demo/wide-1b',
          axis: `axis-${String(i).padStart(2, '0')}`,
          as_of: '2026-11-01T00:00:00Z',
          signer: `${did}#board-attestation-1`,
          measurement: { kind: 'model-comparison', status: 'MEASURED', axis_n: 100 },
          computed_from: { url: `/peritem/axis-${i}.jsonl`, sha256: '0'.repeat(64) },
          public_framing: `Synthetic card ${i} for the reserve cap test.`,
        } satisfies CardBody,
        boardKey,
      ),
  ).sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));
  const hashes = cards.map((c) => c.sha256);
  const root = buildRoot(hashes, '2026-11-01T00:00:00Z', did, boardKey);
  const leaves = rootLeaves(hashes);
  const rootBytes = Buffer.from(JSON.stringify(root));
  const proof = (sha: string) => {
    const i = hashes.indexOf(sha);
    if (i < 0) return undefined;
    return {
      schema: 'svc.card-inclusion-proof/1',
      sha256: sha,
      leaf_index: i,
      leaf_count: root.leaf_count,
      merkle_root: root.merkle_root,
      root_url: '/root.json',
      proof: dupInclusionProof(leaves, i).map((h) => Buffer.from(h).toString('hex')),
    };
  };
  return {
    release: {
      as_of: '2026-11-01T00:00:00Z',
      axes: cards.map((c) => c.axis),
      active: cards,
      root,
      rootSha256: sha256Hex(rootBytes),
      pointerRootSha256: sha256Hex(rootBytes),
      merkle_root: root.merkle_root,
    },
    proofOf: proof,
    root: { merkle_root: root.merkle_root, leaf_count: root.leaf_count },
  };
}
