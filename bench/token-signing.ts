/**
 * §14. Signing through a PKCS#11 token (issue 30): Ed25519 signatures made by a SoftHSM2 token
 * through `pkcs11js` (src/keys/pkcs11-keys.ts, the signer the service uses with
 * GSPC_SIGNER=pkcs11) against the same number made by node:crypto in this process, each over the
 * bytes a paid request signs (a receipt's JWS signing input), alternated in rounds so a drift of
 * the machine hits both. Every token signature is checked with node:crypto (a signer that
 * answered garbage fast must not look fast). Reported, no goal: what a paid request pays for
 * keeping its key in a token. Skipped, with the reason, without SoftHSM2 or the binding.
 */
import { generateKeyPairSync, sign, verify, createPublicKey } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTokenKeys } from '../src/keys/pkcs11-keys.js';
import { softhsmMissing, softhsmToken, SOFTHSM_MODULE } from '../test/helpers/softhsm.js';

export interface TokenFigures {
  skipped?: string;
  signatures: number;
  tokenUs: number;
  nodeUs: number;
  ratio: number;
  rounds: { tokenUs: number; nodeUs: number }[];
}

const SPKI = Buffer.from('302a300506032b6570032100', 'hex');

export function measureTokenSigning(
  tmp: string,
  perRound: number,
  rounds: number,
  log: (l: string) => void,
): TokenFigures {
  const skipped = softhsmMissing();
  if (skipped !== undefined) {
    log(`  skipped: ${skipped}`);
    return { skipped, signatures: 0, tokenUs: 0, nodeUs: 0, ratio: 0, rounds: [] };
  }
  const dir = join(tmp, 'softhsm');
  mkdirSync(dir);
  const t = softhsmToken(['board-attestation-1', 'card-attestation-1', 'card-attestation-2'], {
    token: 'gspc-bench',
    dir,
  });
  const keys = loadTokenKeys(
    { module: SOFTHSM_MODULE, token: t.token, pinFile: t.pinFile },
    'did:web:bench.example',
    '/nonexistent',
  );
  const board = keys.state('board-attestation-1');
  if (!board.healthy) throw new Error(`the bench token's board key: ${board.reason}`);
  const publicKey = createPublicKey({
    key: Buffer.concat([SPKI, board.signer.publicKey]),
    format: 'der',
    type: 'spki',
  });
  const { privateKey } = generateKeyPairSync('ed25519');
  // About the size of a receipt's JWS signing input (header.payload, base64url).
  const message = Buffer.alloc(420, 0x61);
  const out: TokenFigures['rounds'] = [];
  for (let r = 0; r < rounds; r++) {
    let t0 = performance.now();
    let last: Uint8Array = new Uint8Array();
    for (let i = 0; i < perRound; i++) last = board.signer.sign(message);
    const tokenUs = ((performance.now() - t0) * 1000) / perRound;
    if (!verify(null, message, publicKey, last)) throw new Error('a token signature does not verify');
    t0 = performance.now();
    for (let i = 0; i < perRound; i++) sign(null, message, privateKey);
    const nodeUs = ((performance.now() - t0) * 1000) / perRound;
    out.push({ tokenUs, nodeUs });
    log(`  round ${r + 1}: token ${tokenUs.toFixed(0)} µs, node:crypto ${nodeUs.toFixed(0)} µs per signature`);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const tokenUs = mean(out.map((x) => x.tokenUs));
  const nodeUs = mean(out.map((x) => x.nodeUs));
  return { signatures: perRound * rounds, tokenUs, nodeUs, ratio: tokenUs / nodeUs, rounds: out };
}

export const TOKEN_TITLE = 'Signing through a PKCS#11 token (SoftHSM2)';

export function tokenSection(f: TokenFigures): string {
  if (f.skipped !== undefined) return `Skipped: ${f.skipped}.`;
  return [
    `Ed25519 over a 420-byte message (a receipt's JWS signing input), ${f.signatures.toLocaleString('en')} signatures on each side in ${f.rounds.length} alternating rounds; every token signature checked with node:crypto.`,
    '',
    '| signer | µs per signature | × node:crypto |',
    '|---|---|---|',
    `| node:crypto (the key in this process) | ${f.nodeUs.toFixed(0)} | 1.00 |`,
    `| SoftHSM2 through pkcs11js (C_SignInit + C_Sign, CKM_EDDSA) | ${f.tokenUs.toFixed(0)} | ${f.ratio.toFixed(2)} |`,
    '',
    `A paid request signs once (its receipt) and its 402 challenge once (the offer): through the token that is about ${(f.tokenUs - f.nodeUs).toFixed(0)} µs more per signature, on the event loop (the binding is synchronous). What would make the figure wrong: SoftHSM2 is software in this process, so a network HSM adds its round trip, and a hardware token its own signing time; the session is kept logged in (a login per signature would cost more).`,
  ].join('\n');
}
