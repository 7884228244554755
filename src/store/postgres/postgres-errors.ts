import { ledgerError } from '../ledger-errors.js';

/** The URL with any password replaced, for messages and logs. */
export function redactedUrl(databaseUrl: string): string {
  try {
    const u = new URL(databaseUrl);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

// Node socket errors, and SQLSTATE classes 08 (connection exception), 53 (insufficient
// resources), 57P (server shutting down / cannot connect now), 3D000 (no such database),
// 28 (authentication): the database cannot be used, as opposed to a statement being wrong.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
]);
const UNAVAILABLE_SQLSTATE = /^(08|53|57P|3D000|28)/;

/**
 * Maps a driver error to `ledger_unavailable` when it means the database cannot be reached (or,
 * at open time, `always`, since any failure there means the ledger cannot be used); otherwise
 * returns it unchanged: a failing statement is a bug to surface, not an outage.
 */
export function unavailableIfConnection(e: unknown, where: string, always: boolean): unknown {
  const code = (e as { code?: unknown })?.code;
  const message = e instanceof Error ? e.message || e.constructor.name : String(e);
  const isConnection =
    (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(message);
  if (!always && !isConnection) return e;
  return ledgerError('ledger_unavailable', `ledger: ${where} unavailable: ${message}`, {
    ...(typeof code === 'string' ? { driver_code: code } : {}),
  });
}
