/**
 * Serves an x402Facilitator over node:http with the three endpoints HTTPFacilitatorClient
 * (@x402/core/http) calls: POST /verify and POST /settle with {x402Version, paymentPayload,
 * paymentRequirements}, GET /supported. Like the reference example, a thrown error becomes a 500
 * with {error}; a well-formed answer is a 200 even when isValid/success is false.
 *
 * Tests can switch the server into a failure mode to see how the service copes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';

/**
 * - normal: the real facilitator answers.
 * - down: every request gets 503 (or, with `down: 'reset'`, the connection is destroyed unanswered).
 * - slow: every answer is delayed by `delayMs` (default 2000).
 * - settle-slow: /verify answers at once; /settle waits `delayMs` and then really settles (the
 *   transfer happens, but a caller that timed out never hears of it: an unknown outcome).
 * - settle-down: /verify answers; /settle gets 503 (or a reset connection) and settles nothing.
 * - settle-fails: /verify and /supported answer normally; /settle answers success:false with
 *   `reason` (default `unexpected_settle_error`) and moves no money.
 * - settle-pending: /settle really broadcasts the transfer while the chain holds it unmined, so the
 *   official facilitator's receipt wait (shortened to `delayMs`, default 300) runs out and it
 *   answers, itself, `success: false, errorReason: "settlement_pending"` with the transaction's
 *   hash; the transfer lands afterwards: at once after the answer (`land: 'after-answer'`, the
 *   default) or when the test calls `LocalRail.landPending()` (`land: 'held'`).
 * - settle-lies: /settle really settles (the transfer is mined) and then answers as the reference
 *   facilitator's catch path does after a broadcast: `success: false, transaction: ''` with
 *   `reason` (default `unexpected_settle_error`), under HTTP `status` (default 200).
 */
export type FacilitatorMode =
  | 'normal'
  | 'down'
  | 'slow'
  | 'settle-fails'
  | 'settle-slow'
  | 'settle-down'
  | 'settle-pending'
  | 'settle-lies';

export interface FacilitatorModeOptions {
  delayMs?: number;
  reason?: string;
  down?: '503' | 'reset';
  land?: 'after-answer' | 'held';
  /** settle-lies: the HTTP status of the answer. */
  status?: number;
}

/**
 * What `settle-pending` needs of the chain and the facilitator (the rail provides it): stop
 * mining and shorten the receipt wait, then mine what was held and restore both.
 */
export interface PendingControl {
  hold(receiptWaitMs: number): Promise<void>;
  land(): Promise<void>;
}

export interface FacilitatorServer {
  readonly url: string;
  setMode(mode: FacilitatorMode, options?: FacilitatorModeOptions): void;
  close(): Promise<void>;
}

interface FacilitatorRequest {
  paymentPayload?: PaymentPayload;
  paymentRequirements?: PaymentRequirements;
}

async function readJson(req: IncomingMessage): Promise<FacilitatorRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as FacilitatorRequest;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

export async function serveFacilitator(
  facilitator: x402Facilitator,
  pending?: PendingControl,
): Promise<FacilitatorServer> {
  let mode: FacilitatorMode = 'normal';
  let options: FacilitatorModeOptions = {};
  const closing = new AbortController(); // ends pending 'slow' delays on close()

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/supported') return send(res, 200, facilitator.getSupported());
    if (req.method !== 'POST' || (path !== '/verify' && path !== '/settle'))
      return send(res, 404, { error: `no route ${req.method} ${path}` });
    const body = await readJson(req);
    const { paymentPayload, paymentRequirements } = body;
    if (!paymentPayload || !paymentRequirements)
      return send(res, 400, { error: 'Missing paymentPayload or paymentRequirements' });
    if (path === '/verify') return send(res, 200, await facilitator.verify(paymentPayload, paymentRequirements));
    if (mode === 'settle-down') {
      if (options.down === 'reset') return void req.socket.destroy();
      return void res
        .writeHead(503, { 'content-type': 'text/plain' })
        .end('facilitator settle down (local rail test mode)');
    }
    if (mode === 'settle-slow') await sleep(options.delayMs ?? 2000, undefined, { signal: closing.signal });
    if (mode === 'settle-pending') {
      if (!pending) throw new Error('settle-pending needs the rail (a PendingControl)');
      await pending.hold(options.delayMs ?? 300);
      const answer = await facilitator.settle(paymentPayload, paymentRequirements);
      send(res, 200, answer);
      if (options.land !== 'held') await pending.land();
      return;
    }
    if (mode === 'settle-lies') {
      const settled = await facilitator.settle(paymentPayload, paymentRequirements);
      if (!settled.success) throw new Error(`settle-lies: the real settle failed (${settled.errorReason})`);
      const lie: SettleResponse = {
        success: false,
        errorReason: options.reason ?? 'unexpected_settle_error',
        errorMessage: 'local rail facilitator is in settle-lies mode (settled, then answered as failed)',
        transaction: '',
        network: paymentRequirements.network,
      };
      return send(res, options.status ?? 200, lie);
    }
    if (mode === 'settle-fails') {
      const failed: SettleResponse = {
        success: false,
        errorReason: options.reason ?? 'unexpected_settle_error',
        errorMessage: 'local rail facilitator is in settle-fails mode',
        transaction: '',
        network: paymentRequirements.network,
      };
      return send(res, 200, failed);
    }
    return send(res, 200, await facilitator.settle(paymentPayload, paymentRequirements));
  }

  const server = createServer((req, res) => {
    void (async () => {
      if (mode === 'down') {
        if (options.down === 'reset') return void req.socket.destroy();
        return void res.writeHead(503, { 'content-type': 'text/plain' }).end('facilitator down (local rail test mode)');
      }
      if (mode === 'slow') await sleep(options.delayMs ?? 2000, undefined, { signal: closing.signal });
      await route(req, res);
    })().catch((error: unknown) => {
      if (closing.signal.aborted) return void req.socket.destroy();
      if (!res.headersSent) send(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setMode(next, nextOptions = {}) {
      mode = next;
      options = nextOptions;
    },
    close() {
      closing.abort();
      // Keep-alive sockets from the resource server's fetch would hold close() open; drop them.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}
