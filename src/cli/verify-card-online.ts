/**
 * `gspc verify <url> --card <sha256|card.json> [--witness-policy <file>] [--trust-did-document
 * <file>] [--trust-key <key>]... [--json]`: one card checked online from the log's tiles
 * (src/verify/card-online.ts, decisions VC1-VC7). Exit 0 VALID, 1 anything else.
 */
import { readFileSync } from 'node:fs';
import { GspcError } from '../core/errors.js';
import { readerAnchor } from '../verify/key-anchor-source.js';
import { verifyCardOnline } from '../verify/card-online.js';
import { readPolicy } from './verify.js';

/** The card the reader named: its sha256, and its document when they gave a file. */
function cardArgument(card: string): { sha256: string; doc?: unknown } {
  if (/^[0-9a-f]{64}$/.test(card)) return { sha256: card };
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(card, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new GspcError(
      'config_invalid',
      `--card ${card} is neither a 64-hex sha256 nor a card JSON file (${code ?? 'not JSON'})`,
    );
  }
  const sha256 = (doc as { sha256?: unknown } | null)?.sha256;
  if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256))
    throw new GspcError('config_invalid', `--card ${card} is not a card (no 64-hex sha256)`);
  // Its body must hash to that sha256: checked with its signature (content_address).
  return { sha256, doc };
}

export async function runVerifyCardOnline(
  url: string,
  o: { card: string; witnessPolicy?: string; trustDidDocument?: string; trustKey: string[] },
  json: boolean,
  print: (line: string) => void,
): Promise<number> {
  // Everything the reader configured is read and refused before anything is fetched.
  const anchor = readerAnchor(o.trustDidDocument, o.trustKey);
  const policy = o.witnessPolicy === undefined ? undefined : readPolicy(o.witnessPolicy);
  const card = cardArgument(o.card);
  const report = await verifyCardOnline(url, card.sha256, {
    ...(anchor && { anchor }),
    ...(policy && { witnessPolicy: { policy, now: () => new Date() } }),
    ...(card.doc !== undefined && { cardDocument: card.doc }),
  });
  if (json) print(JSON.stringify(report, null, 2));
  else {
    print(`gspc verify ${report.source} --card ${card.sha256} (one card, from the log's tiles)`);
    for (const c of report.checks) print(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.check}: ${c.detail}`);
    if (report.keys !== null) print(`keys: ${report.keys}`);
    const r = report.requests;
    print(`requests: ${r.total} (${r.tiles} tiles, ${r.tile_bytes} bytes of tiles)`);
    const failed = report.checks.find((c) => !c.ok);
    print(
      report.result === 'VALID'
        ? `VALID: entry ${report.log!.index} of ${report.log!.origin} at size ${report.log!.tree_size}`
        : `${report.result} (${report.code}): ${failed?.check}: ${failed?.detail}`,
    );
  }
  return report.result === 'VALID' ? 0 : 1;
}
