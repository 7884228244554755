/**
 * Evidence benchmarks (issue 3), as ratios against raw node:crypto loops over the same inputs in
 * the same process:
 *   - sealing N cards (RFC 8785 + SHA-256 + Ed25519 sign) vs raw SHA-256 + sign of bytes of the
 *     same size (goal ≤ 1.5×);
 *   - verifying N cards with the shared card verifier (canonical form, hash, signature, ledgers,
 *     inclusion under the dup-tree root and in the card log, both trees recomputed from all
 *     cards as `gspc verify` does) vs raw Ed25519 verify of the same messages
 *     (goal ≤ 1.5×).
 * Cards are synthetic but shaped like real ones (about 900 bytes canonical).
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { keyPairFromSeed, sign, verify } from '../src/core/crypto/ed25519.js';
import { canonicalBytesStrict } from '../src/core/crypto/canonical-json.js';
import { sealCard, type CardBody, type CardFile } from '../src/core/evidence/card.js';
import { dupInclusionProof } from '../src/core/evidence/merkle/dup-root.js';
import { DupTree } from '../src/core/evidence/merkle/dup-tree.js';
import { rootLeaves } from '../src/core/evidence/public-root.js';
import { logLeaves } from '../src/core/evidence/card-log.js';
import { MerkleTree } from '../src/core/evidence/merkle/merkle-tree.js';
import { verifyCard } from '../src/core/verify/card-verifier.js';
import { nodeVerifyCrypto } from '../src/verify/node-crypto.js';

export interface EvidenceFigures {
  cards: number;
  sealMs: number;
  rawSignMs: number;
  verifyMs: number;
  rawVerifyMs: number;
  invalid: number;
}

const KID = 'did:web:localhost%3A8080#board-attestation-1';

function body(i: number): CardBody {
  const k = 100 + (i % 300);
  return {
    schema: 'card-v1',
    surface: 'board.measurement',
    subject: `bench/model-${i % 1000}`,
    axis: `axis-${Math.floor(i / 1000)}`,
    as_of: '2026-11-01T00:00:00Z',
    signer: KID,
    measurement: {
      kind: 'model-comparison',
      status: 'MEASURED',
      axis_n: 400,
      role: 'field',
      responses: 400,
      parsed: 390,
      correct: k,
      unparsed: 10,
      accuracy: k / 390,
      interval: [k / 400, k / 380],
      axis_separation: 'TIE',
    },
    computed_from: {
      url: `/peritem/axis-${Math.floor(i / 1000)}.jsonl`,
      sha256: createHash('sha256').update(String(i)).digest('hex'),
      rows: 2000,
    },
    public_framing: `As of 2026-11-01T00:00:00Z, axis axis-${Math.floor(i / 1000)}: bench/model-${i % 1000}, accuracy ${(k / 390).toFixed(3)} on 390 parsed items. Measurement, not certification; live counts come from the board.`,
  };
}

export async function measureEvidence(n: number, log: (s: string) => void): Promise<EvidenceFigures> {
  const pair = keyPairFromSeed(Buffer.alloc(32, 42));
  const key = {
    healthy: true as const,
    signer: { kid: KID, publicKey: pair.publicKey, sign: (m: Uint8Array) => sign(pair.privateKey, m) },
  };
  const bodies = Array.from({ length: n }, (_, i) => body(i));
  // Anchor: the bytes a card signs, prepared outside the timing; then only hash + sign.
  const messages = bodies.map((b) => canonicalBytesStrict(b));
  let t = performance.now();
  for (const m of messages) {
    createHash('sha256').update(m).digest();
    sign(pair.privateKey, m);
  }
  const rawSignMs = performance.now() - t;
  t = performance.now();
  const cards: CardFile[] = bodies.map((b) => sealCard(b, key));
  const sealMs = performance.now() - t;
  log(`  sealed ${n} cards in ${sealMs.toFixed(0)} ms (raw hash+sign ${rawSignMs.toFixed(0)} ms)`);

  const active = cards.map((c) => c.sha256).sort();
  const index = new Map(active.map((h, i) => [h, i]));
  // As `gspc verify` does for a whole release: the root is recomputed from all cards (timed
  // below, inside the verify figure), so per-card proofs are not needed.
  t = performance.now();
  const tree = new DupTree(rootLeaves(active));
  // And the card log's root from every entry (here: the same cards, one release).
  const logTree = new MerkleTree(logLeaves(active));
  const rootMs = performance.now() - t;
  const root = {
    merkle_root: Buffer.from(tree.root()).toString('hex'),
    leaf_count: active.length,
    as_of: '2026-11-01T00:00:00Z',
  };
  const ctx = {
    knownIncluded: new Set(active),
    keys: new Map([[KID, Uint8Array.from(pair.publicKey)]]),
    root,
    rootSignatureValid: true,
    withdrawn: new Map(),
    superseded: new Map(),
    proofFor: (h: string) => {
      const i = index.get(h)!;
      return {
        leaf_index: i,
        leaf_count: tree.size,
        proof: dupInclusionProof(tree, i).map((p) => Buffer.from(p).toString('hex')),
      };
    },
    log: {
      origin: 'localhost:8080/log',
      tree_size: logTree.size,
      root_hash: Buffer.from(logTree.root()).toString('hex'),
      checkpointValid: true,
      knownLogged: new Set(active),
      proofFor: (h: string) => {
        const i = index.get(h)!;
        return {
          leaf_index: i,
          tree_size: logTree.size,
          proof: logTree.inclusionProof(i).map((p) => Buffer.from(p).toString('hex')),
        };
      },
    },
  };
  const sigs = cards.map((c) => Buffer.from(c.sig_ed25519!, 'hex'));
  t = performance.now();
  for (let i = 0; i < n; i++) verify(pair.publicKeyObject, messages[i]!, sigs[i]!);
  const rawVerifyMs = performance.now() - t;
  t = performance.now();
  let invalid = 0;
  for (const c of cards) if ((await verifyCard(c, ctx, nodeVerifyCrypto)).result !== 'VALID') invalid++;
  const verifyMs = performance.now() - t + rootMs;
  log(
    `  verified ${n} cards in ${verifyMs.toFixed(0)} ms (raw verify ${rawVerifyMs.toFixed(0)} ms), ${invalid} invalid`,
  );
  return { cards: n, sealMs, rawSignMs, verifyMs, rawVerifyMs, invalid };
}

export function evidenceSection(e: EvidenceFigures): string {
  const r1 = e.sealMs / e.rawSignMs;
  const r2 = e.verifyMs / e.rawVerifyMs;
  const verdict = (r: number, goal: number) => (r <= goal ? 'PASS' : 'BELOW GOAL');
  return [
    `${e.cards.toLocaleString('en')} synthetic card-v1 cards (about ${canonicalBytesStrict(body(0)).length} canonical bytes each), one process.`,
    '',
    '| Step | Time | Anchor (raw node:crypto) | Ratio | Goal |',
    '|---|---:|---:|---:|---|',
    `| seal (RFC 8785 + SHA-256 + Ed25519 sign) | ${e.sealMs.toFixed(0)} ms | ${e.rawSignMs.toFixed(0)} ms (SHA-256 + sign) | **${r1.toFixed(2)}×** | ≤ 1.5×: ${verdict(r1, 1.5)} |`,
    `| verify a release (root and log recomputed from all cards, then per card: canonical form, hash, signature, ledgers, root and log membership) | ${e.verifyMs.toFixed(0)} ms | ${e.rawVerifyMs.toFixed(0)} ms (verify) | **${r2.toFixed(2)}×** | ≤ 1.5×: ${verdict(r2, 1.5)} |`,
    '',
    `All ${e.cards - e.invalid} of ${e.cards} cards verified VALID.`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const e = await measureEvidence(Number(process.env.BENCH_CARDS ?? 100_000), (s) => process.stdout.write(`${s}\n`));
  process.stdout.write(`${evidenceSection(e)}\n`);
}
