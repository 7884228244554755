/**
 * `gspc corrections sign <corpus-dir>`: signs the corpus's corrections ledger with the board key
 * (specification, "Corrections ledger": a ledger signature reads stale after any edit until
 * re-issued; this is the re-issue). The ledger is validated first; the signature covers the
 * exact bytes of ledger.json and of every entry file and is written to corrections/signature.json.
 * It signs for the board's origin (`--public-url`, else the data directory's current release's)
 * with the keys the next publish signs with (issue 36): signed for another DID, the served
 * signature would read INVALID, and `gspc publish` refuses such a ledger.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliRun } from './cli-io.js';
import type { ConfigSource } from '../config.js';
import { GspcError, type CorpusProblem } from '../core/errors.js';
import type { SignerState } from '../core/evidence/signer.js';
import {
  sealCorrectionsSignature,
  signaturePayload,
  type CorrectionsSignatureFile,
} from '../core/ledger/corrections-signature.js';
import { SIGNATURE_FILE } from '../corpus/status/corrections.js';
import { readCorrectionsDir } from '../corpus/status/corrections-dir.js';
import { signingContext } from '../keys/signing.js';
import { currentReleaseDir } from '../release/data-dir.js';
import { releaseDirDid } from '../release/release-origin.js';

export interface SignedLedger {
  /** Where the signature was written. */
  path: string;
  file: CorrectionsSignatureFile;
  /** False when the board key was unhealthy: the file records why it holds no signature. */
  signed: boolean;
}

/**
 * Validates `corpusDir`'s corrections ledger and writes its signature at `signedAt` under `key`.
 * Throws `corpus_invalid` (with every problem) when the ledger does not read, and when the corpus
 * has no corrections/ directory. An unhealthy key writes an unsigned record with its reason.
 */
export function signCorrections(corpusDir: string, key: SignerState, signedAt: Date): SignedLedger {
  // The signature being replaced is not read: a broken one must not block its re-issue.
  const read = readCorrectionsDir(corpusDir, { skip: SIGNATURE_FILE });
  if (read.problems.length > 0)
    throw invalid(
      read.problems,
      `the corrections ledger has ${read.problems.length} problem${read.problems.length === 1 ? '' : 's'}; nothing was signed`,
    );
  if (!read.value)
    throw invalid(
      [{ file: 'corrections/ledger.json', field: '', reason: 'missing: there is no corrections ledger to sign' }],
      `no corrections ledger in ${corpusDir}`,
    );
  const ledger = read.value;
  const payload = signaturePayload(
    { ledger_sha256: ledger.ledgerSha256, entries: ledger.entries.map((e) => ({ id: e.id, sha256: e.sha256 })) },
    signedAt.toISOString(),
  );
  const file = sealCorrectionsSignature(payload, key);
  const path = join(corpusDir, SIGNATURE_FILE);
  // Written aside and renamed: a reader never sees half a signature.
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`);
  renameSync(tmp, path);
  return { path, file, signed: file.sig_ed25519 !== null };
}

function invalid(problems: CorpusProblem[], message: string): GspcError {
  return new GspcError('corpus_invalid', message, { problems });
}

export function registerCorrectionsCommands(program: Command, configFor: ConfigSource, run: CliRun): void {
  const corrections = program
    .command('corrections')
    .description('the public corrections ledger (corrections/ in a corpus)');
  corrections
    .command('sign')
    .description(
      'sign the corrections ledger (ledger.json and every entry, byte for byte) with the board key; writes corrections/signature.json',
    )
    .argument('<corpus-dir>', 'the corpus directory whose corrections/ is signed')
    .option(
      '--data-dir <dir>',
      'the data directory whose keys/ is used (default: $GSPC_DATA_DIR or ./data; GSPC_KEY_DIR takes precedence)',
    )
    .option('--key-dir <dir>', 'where the keys are kept (default: $GSPC_KEY_DIR or <data-dir>/keys)')
    .option(
      '--public-url <origin>',
      "the origin the ledger is signed for (default: $GSPC_BASE_URL, else the origin of the data directory's current release)",
    )
    .action((corpusDir: string, o: { dataDir?: string; keyDir?: string; publicUrl?: string }) => {
      const overrides = {
        ...(o.dataDir !== undefined && { dataDir: o.dataDir }),
        ...(o.keyDir !== undefined && { keyDir: o.keyDir }),
        ...(o.publicUrl !== undefined && { publicUrl: o.publicUrl }),
      };
      const config = configFor(overrides);
      // Signed for the origin the board is published at: the one named, else the current release's.
      const current = currentReleaseDir(config.dataDir);
      const releaseOrigin = current === undefined ? undefined : releaseDirDid(current);
      const didHost =
        config.baseUrlExplicit || releaseOrigin === undefined
          ? config.didHost
          : releaseOrigin.slice('did:web:'.length).replace('%3A', ':');
      // The keys the next publish signs with (a pending key change included): the ledger is served with them.
      const key = signingContext(config.keyDir, didHost, config.token, { next: true }).inputs.boardKey;
      const r = signCorrections(corpusDir, key, new Date());
      run.print(
        `${r.signed ? 'signed' : 'unsigned'} ${r.file.entries.length} entries at ${r.file.signed_at} under ${r.file.kid}\n${r.path}\n`,
      );
      if (!r.signed) {
        run.warn(
          `gspc: the board key is unhealthy (${r.file.unsigned_reason}); the ledger reads UNSIGNED until signed with a healthy key`,
        );
        run.exitCode = 2;
      }
    });
}
