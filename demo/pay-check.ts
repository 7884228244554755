/**
 * The demo's own check of a commission receipt, as a buyer would do it: the board key from the
 * service's DID document (the verification method the receipt's `signer` names), the signed root
 * from /root.json, then the receipt's content address, signature and every reserved card's
 * inclusion proof (src/core/evidence/commission-receipt.ts verifyCommissionReceipt).
 */
import { verifyCommissionReceipt } from '../src/core/evidence/commission-receipt.js';

export async function checkCommissionReceipt(
  receipt: Record<string, unknown>,
  base: string,
): Promise<{ ok: boolean; lines: string[] }> {
  const did = (await (await fetch(`${base}/.well-known/did.json`)).json()) as {
    verificationMethod: { id: string; publicKeyJwk: { x: string } }[];
  };
  const method = did.verificationMethod.find((m) => m.id === receipt.signer);
  if (!method)
    return {
      ok: false,
      lines: [`commission receipt: its signer ${String(receipt.signer)} is not in the DID document`],
    };
  const root = (await (await fetch(`${base}/root.json`)).json()) as { merkle_root: string; leaf_count: number };
  const v = verifyCommissionReceipt(receipt, Buffer.from(method.publicKeyJwk.x, 'base64url'), root);
  const reserve = (receipt.payload as { reserve: unknown[] }).reserve.length;
  return {
    ok: v.ok,
    lines: v.ok
      ? [
          `commission receipt ${String(receipt.sha256).slice(0, 16)}…: content address, Ed25519 signature under ${method.id}, and ${reserve} reserved card(s) each proven under the signed root ${root.merkle_root.slice(0, 16)}… (${root.leaf_count} leaves): VALID`,
        ]
      : [`commission receipt: INVALID (${v.reasons.join('; ')})`],
  };
}
