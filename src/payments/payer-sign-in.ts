/**
 * Who paid, proven by the paying wallet (decision P45). A payment's signature and authorization
 * are public on chain, so presenting them proves nothing; the x402 v2 `sign-in-with-x` extension
 * (CAIP-122; EIP-4361 messages for `eip155` chains) is the official way for a wallet that paid to
 * prove it holds the key. Every 402 declares it; a request carrying a `SIGN-IN-WITH-X` header
 * signed by a payment's payer is given what that payment bought, on the URL it bought it for.
 *
 * The checks, in order (the library's, then ours):
 * - the header parses as the extension's payload (`parseSIWxHeader`);
 * - its domain is this service's public host and its URI's origin this service's public origin,
 *   issued under 5 minutes ago, not expired, not before its `notBefore` (`validateSIWxMessage`);
 * - stricter than the library: the URI is this request's URL (path and query), the chain the
 *   rail's network, the type `eip191`, so a proof for one resource opens no other;
 * - the signature recovers the address (`verifySIWxSignature`, EOA wallets: no chain is read);
 * - the (address, nonce) pair is used once in this process (`UsedSignIns`).
 */
import { createHash } from 'node:crypto';
import {
  buildSIWxSchema,
  parseSIWxHeader,
  SIGN_IN_WITH_X,
  validateSIWxMessage,
  verifySIWxSignature,
} from '@x402/extensions/sign-in-with-x';

/** The request header (lower case, as node reads it). */
export const SIGN_IN_HEADER = SIGN_IN_WITH_X.toLowerCase();
/** How long a sign-in challenge, and so a proof, is good for (the library's maximum age). */
export const SIGN_IN_SECONDS = 300;

export type SignIn = { kind: 'absent' } | { kind: 'signed_in'; address: string } | { kind: 'refused'; reason: string };

/**
 * The (address, nonce) pairs already used, until their proof expires. One per service process:
 * replicas behind one origin each accept a proof once (documented in docs/operations.md). Bounded,
 * and never by forgetting a live pair: when full, expired pairs are dropped, and if none has
 * expired the new proof is refused (`full`), so flooding it with proofs of one's own cannot make
 * a captured proof usable again (review of P45); sign-ins then wait at most 5 minutes.
 */
export const USED_SIGN_INS_CAP = 50_000;

export class UsedSignIns {
  private readonly until = new Map<string, number>();
  constructor(private readonly cap = USED_SIGN_INS_CAP) {}

  /** Takes the pair: `used` when it is taken and has not expired, `full` when no room is left. */
  claim(address: string, nonce: string, expiresAtMs: number, nowMs: number): 'claimed' | 'used' | 'full' {
    const key = `${address.toLowerCase()} ${nonce}`;
    const held = this.until.get(key);
    if (held !== undefined && held > nowMs) return 'used';
    if (held === undefined && this.until.size >= this.cap) {
      for (const [k, t] of this.until) if (t <= nowMs) this.until.delete(k);
      if (this.until.size >= this.cap) return 'full';
    }
    this.until.set(key, expiresAtMs);
    return 'claimed';
  }
}

export interface SignInContext {
  /** This service's public origin (GSPC_BASE_URL): what the proof's domain and URI must name. */
  origin: string;
  /** This request's path and query. */
  resourcePath: string;
  /** The rail's CAIP-2 network. */
  network: string;
  used: UsedSignIns;
  now: Date;
}

/** Reads and checks the request's `SIGN-IN-WITH-X` header; never throws. */
export async function readSignIn(
  headers: Record<string, string | string[] | undefined>,
  c: SignInContext,
): Promise<SignIn> {
  const raw = headers[SIGN_IN_HEADER];
  if (raw === undefined) return { kind: 'absent' };
  if (typeof raw !== 'string') return refused('send one SIGN-IN-WITH-X header, not several');
  // A proof made from this service's declaration is under 2 KiB; the library parses the message
  // fields before any signature is checked, at a cost that grows with them (review of P45).
  if (raw.length > MAX_HEADER) return refused(`the SIGN-IN-WITH-X header is longer than ${MAX_HEADER} characters`);
  let p: ReturnType<typeof parseSIWxHeader>;
  try {
    p = parseSIWxHeader(raw);
  } catch (e) {
    return refused((e as Error).message);
  }
  const shape = shapeProblem(p);
  if (shape !== undefined) return refused(shape);
  const origin = new URL(c.origin);
  let uri: URL;
  try {
    uri = new URL(p.uri);
  } catch {
    return refused('its uri is not a URL');
  }
  if (`${uri.pathname}${uri.search}` !== c.resourcePath)
    return refused(`it signs in for ${uri.pathname}${uri.search}, not for this request's ${c.resourcePath}`);
  if (p.chainId !== c.network || p.type !== 'eip191')
    return refused(`it is signed for ${p.chainId} (${p.type}); this service accepts ${c.network} (eip191)`);
  let address: string;
  try {
    const checked = await validateSIWxMessage(p, origin);
    if (!checked.isValid) return refused(`${checked.invalidReason}: ${checked.invalidMessage}`);
    // The library builds the EIP-4361 message outside its own try: a field the message grammar
    // refuses throws here, and is a refused proof, never a 500 (review of P45).
    const verified = await verifySIWxSignature(p);
    if (!verified.isValid) return refused(`${verified.invalidReason}: ${verified.invalidMessage}`);
    address = verified.payer!.toLowerCase();
  } catch (e) {
    return refused(`its message is not a valid EIP-4361 message (${(e as Error).message})`);
  }
  const expires = Math.min(
    Date.parse(p.issuedAt) + SIGN_IN_SECONDS * 1000,
    p.expirationTime === undefined ? Infinity : Date.parse(p.expirationTime),
  );
  switch (c.used.claim(address, p.nonce, expires, c.now.getTime())) {
    case 'used':
      return refused('this proof (address and nonce) was already used: sign a new one');
    case 'full':
      return refused(
        `this service holds ${USED_SIGN_INS_CAP} unexpired sign-ins; sign in again in a few minutes (nothing was charged)`,
      );
    case 'claimed':
      return { kind: 'signed_in', address };
  }
}

const MAX_HEADER = 4096;

/** Fields this service's declaration never produces, refused before the library parses them. */
function shapeProblem(p: ReturnType<typeof parseSIWxHeader>): string | undefined {
  if (!/^[A-Za-z0-9]{8,64}$/.test(p.nonce)) return 'its nonce is not 8-64 letters and digits (EIP-4361)';
  if ((p.resources?.length ?? 0) > 4) return 'it lists more than 4 resources';
  if (p.statement !== undefined && (p.statement.length > 512 || /[\r\n]/.test(p.statement)))
    return 'its statement is longer than 512 characters or spans lines';
  if (p.requestId !== undefined && p.requestId.length > 256) return 'its requestId is longer than 256 characters';
  if (!/^0x[0-9a-fA-F]{40}$/.test(p.address)) return 'its address is not an EVM address';
  return undefined;
}

function refused(why: string): SignIn {
  return { kind: 'refused', reason: `the SIGN-IN-WITH-X proof was not accepted: ${why}` };
}

// The payload's JSON Schema is the same for every 402: built once, not per challenge.
const SIGN_IN_SCHEMA = buildSIWxSchema();

/**
 * The extension as a 402 declares it: the same fields `@x402/extensions`' server fills in
 * (domain, URI, version, nonce, issuedAt, expirationTime, resources), with the statement saying
 * what signing in does. The nonce derived here from the URL and the second is a placeholder:
 * challenges are cached per second (src/serve/products.ts), and each 402 sent gets a drawn one
 * (`withSignInNonce`), since a proof's (address, nonce) is used once.
 */
export function signInDeclaration(c: { origin: string; resourceUrl: string; network: string; now: Date }) {
  const second = Math.floor(c.now.getTime() / 1000);
  const issuedAt = new Date(second * 1000).toISOString();
  return {
    info: {
      domain: new URL(c.origin).host,
      uri: c.resourceUrl,
      version: '1',
      nonce: createHash('sha256').update(`${c.resourceUrl}\n${second}`).digest('hex').slice(0, 32),
      issuedAt,
      expirationTime: new Date((second + SIGN_IN_SECONDS) * 1000).toISOString(),
      statement:
        'Sign in with the wallet that paid for this resource to receive what it bought again. Signing moves no funds.',
      resources: [c.resourceUrl],
    },
    supportedChains: [{ chainId: c.network, type: 'eip191' as const }],
    schema: SIGN_IN_SCHEMA,
  };
}
