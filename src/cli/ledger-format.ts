/**
 * Plain-text forms of the ledger commands' output, for an operator's terminal. Values are
 * printed whole (references, payers, nonces, hashes), since they are what one copies into
 * the next command or a block explorer.
 */
import type { InvoiceRecord, SettlementRecord } from '../store/ledger.js';
import { type ChainShowed, RECONCILE_ACTIONS, type ReconcileReport } from '../payments/reconcile-report.js';

/** A record for JSON output: the artefact bytes left out (listings never load them); the hash stays. */
export function withoutBytes<T extends { artefact: Buffer | null }>(r: T): Omit<T, 'artefact'> {
  const { artefact: _bytes, ...rest } = r;
  return rest;
}

/** Left-aligned columns two spaces apart, with a header row. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

export function formatInvoices(invoices: InvoiceRecord[]): string {
  if (invoices.length === 0) return 'no invoices';
  const rows = invoices.map((i) => [
    i.ref,
    i.state,
    i.product_id,
    i.resource,
    i.commissioned_by,
    i.amount_atomic,
    i.currency,
    i.at,
    i.paid_at ?? '-',
  ]);
  const issued = invoices.filter((i) => i.state === 'ISSUED').length;
  return (
    `${table(['REF', 'STATE', 'PRODUCT', 'RESOURCE', 'COMMISSIONED BY', 'AMOUNT', 'CURRENCY', 'ISSUED', 'PAID'], rows)}\n` +
    `${invoices.length} invoice${invoices.length === 1 ? '' : 's'}, ${issued} awaiting payment`
  );
}

export function formatPayments(records: SettlementRecord[]): string {
  if (records.length === 0) return 'no payments';
  const rows = records.map((r) => [
    r.state,
    r.payer,
    r.nonce,
    r.product_id,
    r.amount_atomic,
    r.network,
    r.transaction ?? '-',
    r.updated_at,
    r.artefact_sha256 === null ? (r.state === 'SETTLED' ? 'not yet (attached at the replay)' : '-') : r.artefact_sha256,
  ]);
  return table(
    ['STATE', 'PAYER', 'NONCE', 'PRODUCT', 'AMOUNT', 'NETWORK', 'TRANSACTION', 'UPDATED', 'ARTEFACT SHA-256'],
    rows,
  );
}

/** What the chain showed for a record, in one line. */
function chainShowed(c: ChainShowed): string {
  const used =
    c.authorization === 'unused'
      ? 'authorization unused'
      : c.transaction === null
        ? 'authorization used, no transaction found'
        : `authorization used in ${c.transaction}, ${c.transfer ? 'with' : 'without'} the transfer to pay_to`;
  return `block ${c.block} (${c.block_time}): ${used}; validBefore ${c.valid_before ?? 'not recorded'}`;
}

export function formatReconcile(report: ReconcileReport, staleAfterS: number): string {
  const chain =
    'error' in report.chain
      ? `the chain could not be read: ${report.chain.error}`
      : `${report.chain.network}, block ${report.chain.block} (${report.chain.block_time})`;
  const lines = [`reconcile at ${report.at} against ${chain}`];
  if (report.entries.length === 0) {
    lines.push(
      `nothing to reconcile: no UNKNOWN payment, no FAILED one whose authorization was used, and no RESERVED one older than ${staleAfterS} s`,
    );
    return lines.join('\n');
  }
  for (const e of report.entries) {
    const move = e.from === e.to ? `stays ${e.to}` : `${e.from} → ${e.to}`;
    lines.push(
      '',
      `${e.action.toUpperCase()}  ${move}  payer ${e.payer}  nonce ${e.nonce}`,
      `  ${e.product_id}  ${e.amount_atomic} on ${e.network}  ${e.resource}`,
      `  ${e.detail}`,
      ...(e.chain === null ? [] : [`  chain: ${chainShowed(e.chain)}`]),
    );
  }
  const counts = RECONCILE_ACTIONS.filter((a) => report.counts[a] > 0).map((a) => `${report.counts[a]} ${a}`);
  lines.push('', `${report.entries.length} step${report.entries.length === 1 ? '' : 's'}: ${counts.join(', ')}`);
  if (report.counts.settled > 0) lines.push(report.note);
  if (report.counts.undecided > 0)
    lines.push('UNDECIDED records stay UNKNOWN until an operator resolves them; nothing is delivered for them.');
  if (report.counts.error > 0) lines.push('ERROR: some records could not be checked; run gspc reconcile again.');
  return lines.join('\n');
}
