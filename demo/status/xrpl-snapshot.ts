/**
 * The demo corpus's recorded XRPL read, `status/xrpl-snapshot.json`: SYNTHETIC answers shaped
 * like rippled's JSON-RPC `account_info` and `account_lines`. The accounts are derived from
 * hashes of labels, so their checksums hold but nobody holds their keys; no server was read.
 */
import { createHash } from 'node:crypto';
import { encodeClassicAddress } from '../../src/core/status/xrpl-address.js';

/** A 160-bit currency code (40 hex digits): 'SYNTHETIC' in ASCII, zero-padded. */
const SYNTHETIC_CURRENCY = Buffer.from('SYNTHETIC').toString('hex').toUpperCase().padEnd(40, '0');
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const synthetic = (label: string) =>
  encodeClassicAddress(createHash('sha256').update(`SYNTHETIC gspc demo account: ${label}`).digest().subarray(0, 20));

export function xrpl_snapshotFiles(): [path: string, text: string][] {
  const account = synthetic('board treasury');
  const usdIssuer = synthetic('usd issuer');
  const eurIssuer = synthetic('eur issuer');
  const holder = synthetic('token holder');
  const ledger = 90000000;
  const line = (peer: string, currency: string, balance: string, limit: string, limit_peer: string) => ({
    account: peer,
    balance,
    currency,
    limit,
    limit_peer,
    quality_in: 0,
    quality_out: 0,
  });
  return [
    [
      'status/xrpl-snapshot.json',
      json({
        recorded_at: '2026-01-15T12:00:00Z',
        endpoint: "SYNTHETIC: no XRPL server was read; the answers are shaped like a rippled JSON-RPC server's",
        account,
        note: 'SYNTHETIC demo snapshot: invented accounts and balances.',
        account_info: {
          result: {
            account_data: {
              Account: account,
              Balance: '25000000',
              Flags: 0,
              LedgerEntryType: 'AccountRoot',
              OwnerCount: 3,
              Sequence: 1,
            },
            ledger_index: ledger,
            validated: true,
            status: 'success',
          },
        },
        account_lines: {
          result: {
            account,
            ledger_index: ledger,
            validated: true,
            limit: 400,
            status: 'success',
            lines: [
              line(usdIssuer, 'USD', '125.5', '1000', '0'),
              line(eurIssuer, 'EUR', '0.000001', '100', '0'),
              // rippled writes very large or small IOU amounts as mantissa e exponent.
              line(holder, SYNTHETIC_CURRENCY, '-1000000000000000e-12', '0', '5000'),
            ],
          },
        },
      }),
    ],
  ];
}
