/**
 * `gspc verify <base-url|release-dir|data-dir> [--json] [--witness-policy <file>] [--trust-did-document <file>]
 * [--trust-key <key>]...`: prints the report; exit status 1 on anything but VALID. A data
 * directory is read as its current release (issue 39), as `gspc export` and `gspc pull` read one.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parseWitnessPolicy, type WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import { GspcError } from '../core/errors.js';
import { sourceOf } from '../verify/release-source.js';
import { readerAnchor } from '../verify/key-anchor-source.js';
import { verifyRelease } from '../verify/release-verifier.js';

/** The values of `--trust-did-document` and `--trust-key` (withTrustOptions). */
export interface TrustFlags {
  trustDidDocument?: string;
  trustKey: string[];
}

/**
 * `--trust-did-document <file>` and `--trust-key <key>` (repeatable): the reader's own anchor for
 * the keys instead of the DID's host (docs/operations.md "Where `gspc verify` takes the keys"),
 * the same options for gspc verify and gspc diff.
 */
export function withTrustOptions(command: Command): Command {
  return command
    .option(
      '--trust-did-document <file>',
      "a DID document you saved from the DID's host: the keys must be its keys, or reached from them by key changes it vouches for (the host is then not asked)",
    )
    .option(
      '--trust-key <key>',
      "a signing key you trust, as its JWK x or RFC 7638 thumbprint (repeatable): an anchor instead of the DID's host; a bare key never anchors the identity root, name it as identity-root=<key>",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    );
}

/** The options as runVerify takes them. */
export const trustOf = (o: TrustFlags): { didDocument?: string; keys: readonly string[] } => ({
  ...(o.trustDidDocument !== undefined && { didDocument: o.trustDidDocument }),
  keys: o.trustKey,
});

export async function runVerify(
  target: string,
  json: boolean,
  print: (line: string) => void,
  policyFile?: string,
  trust: { didDocument?: string; keys?: readonly string[] } = {},
): Promise<number> {
  // Both read before anything is fetched: a bad file is refused first.
  const anchor = readerAnchor(trust.didDocument, trust.keys ?? []);
  const policy = policyFile === undefined ? undefined : readPolicy(policyFile);
  const source = sourceOf(target);
  const report = await verifyRelease(source, {
    // The reader's clock, for the cosignatures' timestamps (the CLI is where a clock is read).
    ...(policy && { witnessPolicy: { policy, now: () => new Date() } }),
    ...(anchor && { anchor }),
  });
  if (json) print(JSON.stringify(report, null, 2));
  else {
    const of = source.dataDir === undefined ? '' : ` (the current release of the data directory ${source.dataDir})`;
    print(`gspc verify ${report.source}${of}`);
    for (const c of report.checks) print(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.check}: ${c.detail}`);
    for (const v of report.cards.invalid.slice(0, 20))
      print(`  FAIL card ${v.sha256 ?? '(no id)'}: ${v.reasons.join('; ')}`);
    if (report.keys !== null) print(`keys: ${report.keys}`);
    print(summaryLine(report));
  }
  return report.ok ? 0 : 1;
}

/** A C2SP tlog-policy file, parsed; a file that is not one is refused before anything is fetched. */
export function readPolicy(path: string): WitnessPolicy {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new GspcError(
      'config_invalid',
      `--witness-policy ${path}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    );
  }
  // The file's bytes: the specification reads a policy as octets (names are opaque octet strings).
  const parsed = parseWitnessPolicy(bytes);
  if (!parsed.ok)
    throw new GspcError('config_invalid', `--witness-policy ${path} is not a C2SP tlog-policy: ${parsed.reason}`);
  return parsed.policy;
}

/**
 * The last line: what failed first, then the counts (issue 28: "INVALID: 5 of 5 cards valid, 2
 * failed checks" read as if all was well).
 */
export function summaryLine(report: Awaited<ReturnType<typeof verifyRelease>>): string {
  const failed = report.checks.filter((c) => !c.ok).map((c) => c.check);
  const cards = `${report.cards.valid} of ${report.cards.checked} cards valid`;
  if (report.ok) return `VALID: every check passes, ${cards}`;
  if (report.verdict === 'UNVERIFIABLE_KEY')
    return `UNVERIFIABLE_KEY: the keys could not be anchored (key_anchor); under the view's own keys every other check passes, ${cards} under them`;
  const what = [
    ...(failed.length > 0
      ? [`${failed.length} failed check${failed.length === 1 ? '' : 's'} (${failed.join(', ')})`]
      : []),
    ...(report.cards.invalid.length > 0
      ? [`${report.cards.invalid.length} invalid card${report.cards.invalid.length === 1 ? '' : 's'}`]
      : []),
  ];
  return `INVALID: ${what.join(' and ')}; ${cards}`;
}
