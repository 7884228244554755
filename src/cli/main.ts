/**
 * `gspc`: the command line. Each command is a thin adapter over the release and HTTP modules.
 * Exit codes: 0 success, 1 unexpected failure, 2 invalid input (corpus, release, config).
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { fileURLToPath } from 'node:url';
import { formatProblem, GspcError, type CorpusProblem } from '../core/errors.js';
import { registerKeysCommands } from './keys-commands.js';
import { registerKeygenCommand } from './keygen-command.js';
import { registerPublishCommand } from './publish-command.js';
import { registerDiffCommand } from './diff-command.js';
import { registerMonitorCommand } from './monitor-command.js';
import { ioFailureLine } from './io-failure.js';
import { keyStates } from '../keys/signing.js';
import { PACKAGE_VERSION, readConfig, type ConfigOverrides, type ConfigSource } from '../config.js';
import { CliRun, PROCESS_IO, type CliIo } from './cli-io.js';
import { runVerify, type TrustFlags, trustOf, withTrustOptions } from './verify.js';
import { isTlogProofFile, runVerifyTlogProof, type TlogProofFlags } from './verify-tlog-proof.js';
import { runVerifyCardOnline } from './verify-card-online.js';
import { registerValidateCommand } from './validate-command.js';
import { registerLedgerCommands } from './ledger-commands.js';
import { runWitness } from './witness.js';
import { networkEntry } from './witness-network-entry.js';
import { registerCorrectionsCommands } from './corrections-commands.js';
import { registerStatusCommands } from './status-commands.js';
import { registerImportCommand } from './import-command.js';
import { registerExportCommands } from './export-commands.js';
import { pullRelease } from '../verify/verified-pull.js';
import { didForHost } from '../core/evidence/did.js';
import { terminalText } from './terminal-text.js';

export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const DATA_DIR = [
  '--data-dir <dir>',
  'where releases, keys and the ledger are kept (default: $GSPC_DATA_DIR or ./data)',
] as const;
const KEY_DIR = ['--key-dir <dir>', 'where the keys are kept (default: $GSPC_KEY_DIR or <data-dir>/keys)'] as const;
const PUBLIC_URL = [
  '--public-url <origin>',
  'the public origin readers fetch from (scheme://host[:port]), which the did:web and signatures name (default: $GSPC_BASE_URL or http://localhost:<port>)',
] as const;

interface DirOptions {
  dataDir?: string;
  keyDir?: string;
  publicUrl?: string;
}

const dirOverrides = (o: DirOptions): ConfigOverrides => ({
  ...(o.dataDir !== undefined && { dataDir: o.dataDir }),
  ...(o.keyDir !== undefined && { keyDir: o.keyDir }),
  ...(o.publicUrl !== undefined && { publicUrl: o.publicUrl }),
});

function port(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
}

/**
 * Runs one command line (`argv` as `process.argv` holds it: node, script, arguments) and resolves
 * to its exit status; `gspc serve` resolves once the service listens. The environment and the
 * output are passed in: `bin/gspc.js` passes the process's own, the tests their own.
 */
export async function main(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  io: CliIo = PROCESS_IO,
): Promise<number> {
  const run = new CliRun(io);
  // The one place the command line reads the environment: every command's configuration is this
  // environment read through the one schema, with the command's own flags over it.
  const configFor: ConfigSource = (overrides: ConfigOverrides = {}) => readConfig(env, overrides);
  const program = gspcProgram(run, configFor, io);

  try {
    await program.parseAsync(argv);
    return run.exitCode;
  } catch (err) {
    // A usage error or --help: commander has written its message already.
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof GspcError) {
      run.warn(`gspc: ${err.message}`);
      const problems = err.details?.problems as CorpusProblem[] | undefined;
      if (problems) for (const p of problems) run.warn(`  ${formatProblem(p)}`);
      return 2;
    }
    const io = ioFailureLine(err, argv[2]);
    if (io !== undefined) {
      run.warn(`gspc: ${io}`);
      return 2;
    }
    throw err;
  }
}

/** The flags of `gspc witness`: recording evidence, or `--network-entry` (WN2). */
interface WitnessFlags {
  kind?: string;
  evidence?: string;
  submit?: string;
  witnessKey: string[];
  networkEntry?: string;
  qpd?: string;
  contact?: string;
  dataDir?: string;
}

/**
 * Every command, its options and arguments, as commander holds them: what `main` parses, and
 * what test/cli/docs-invocations.test.ts checks every `gspc …` in the docs and the help against.
 * Building it runs nothing: each command's work is in its action.
 */
export function gspcProgram(run: CliRun, configFor: ConfigSource, io: CliIo): Command {
  const program = new Command('gspc')
    .description('Public measurement board and metered evidence service')
    .version(PACKAGE_VERSION, '-V, --version', 'print the version of gspc')
    .showHelpAfterError()
    // Set before any subcommand is added, so every subcommand inherits them: commander reports
    // a usage error or --help by throwing (caught below) and writes through `io`, never calling
    // process.exit itself.
    .exitOverride()
    .configureOutput({ writeOut: (t) => io.out(t), writeErr: (t) => io.err(terminalText(t)) });

  const overrides = (o: Record<string, string | undefined>) => dirOverrides(o as DirOptions);
  registerPublishCommand(program, run, configFor, [DATA_DIR, KEY_DIR, PUBLIC_URL], overrides);
  registerKeygenCommand(program, run, configFor, [DATA_DIR, KEY_DIR], overrides);

  registerValidateCommand(program, run);
  registerDiffCommand(program, run);
  registerMonitorCommand(program, run, () => new Date());
  registerKeysCommands(
    program,
    run,
    configFor,
    { options: [DATA_DIR, KEY_DIR], overrides: (o) => dirOverrides(o as DirOptions) },
    () => new Date(),
  );

  program
    .command('pull')
    .description(
      "copy the current release of a publisher (its data directory, a release directory, or the same tree over HTTP), check it as gspc verify does, and only then make it this data directory's current release",
    )
    .argument('<source>', 'a data directory, a release directory, or http(s)://… serving a data directory')
    .option(...DATA_DIR)
    .option(...KEY_DIR)
    .option(...PUBLIC_URL)
    .action(async (source: string, o: DirOptions) => {
      const config = configFor(dirOverrides(o));
      // A key directory copied from the publisher while a key change was pending holds the keys
      // of the release that will log it: a release the key directory's own keys refuse may be that one.
      const states = keyStates(config.keyDir, config.didHost, config.token);
      const published = states.committed.keys.published;
      const pull = (keys: typeof published) =>
        pullRelease(source, config.dataDir, didForHost(config.didHost), { keyDir: config.keyDir, published: keys });
      const r = await pull(published).catch((e: unknown) => {
        if (states.pending === undefined || (e as GspcError).code !== 'release_keys_mismatch') throw e;
        return pull(states.pending.keys.published);
      });
      run.print(
        r.outcome === 'current'
          ? `unchanged: ${r.id} is already current in ${config.dataDir}`
          : `${r.outcome} ${r.id} into ${config.dataDir}: ${r.outcome === 'pulled' ? `${r.files} files, ${r.bytes} bytes, ` : ''}` +
              `${r.checks === 0 ? 'checked before' : `${r.checks} checks pass`}, now current (a running gspc serve picks it up on its next reload, or at once on SIGHUP)`,
      );
      if (published.length === 0)
        run.warn(
          `gspc: warning: ${config.keyDir} holds no keys: before gspc serve, copy the publisher's key directory (its *.key files but identity-root.key, public-keys.json, transitions.json and pending.json, owner-only) there; do not run gspc keygen for a replica, whose keys must be the publisher's`,
        );
    });

  program
    .command('serve')
    .description(
      'serve the current release of the data directory and follow new publishes (the bundled demo only with --demo, or when the default ./data is empty)',
    )
    .option('--release <dir>', 'serve this release directory instead of the current one')
    .option('--port <n>', 'port (default: $PORT or 8080)', port)
    .option('--host <host>', 'address to listen on (default: $GSPC_HOST or 127.0.0.1)')
    .option(...DATA_DIR)
    .option(...KEY_DIR)
    .option(...PUBLIC_URL)
    .option('--demo', 'serve the bundled synthetic demo when nothing is published (publishing it for this origin)')
    .action(
      async (
        o: DirOptions & { release?: string; port?: number; host?: string; publicUrl?: string; demo?: boolean },
      ) => {
        const config = configFor({
          ...dirOverrides(o),
          ...(o.port !== undefined && { port: o.port }),
          ...(o.host !== undefined && { host: o.host }),
        });
        // Loaded here, not at the top: the service (Fastify, the agent surfaces, the payment
        // rail) is most of the CLI's start-up time, and only `serve` needs it.
        const { startService } = await import('../service.js');
        await startService(config, {
          ...(o.release !== undefined && { releaseDir: o.release }),
          demoCorpusDir: `${PACKAGE_ROOT}demo/corpus`,
          demo: o.demo === true,
        });
      },
    );

  withTrustOptions(
    program
      .command('verify')
      .description(
        'verify a whole release without trusting the server: signatures, root, proofs, ledgers, manifest, and every number re-derived from the per-item rows',
      )
      .argument(
        '<base-url|release-dir|data-dir|proof.tlog-proof>',
        "a running service (http://…), a release directory, a data directory (its current release), or a card's C2SP tlog-proof file (checked offline)",
      )
      .option('--json', 'print the report as JSON')
      .option(
        '--witness-policy <file>',
        'a C2SP tlog-policy (log, witness, group, quorum lines): the checkpoint must carry its quorum of witness cosignatures',
      )
      .option(
        '--card <card.json|sha256>',
        'for a tlog-proof: the card it proves; with a URL: check that one card online from the log tiles (a card file, or its 64-hex sha256)',
      )
      .option(
        '--log-vkey <vkey>',
        "for a tlog-proof: the log's C2SP verifier key, as you trust it (repeatable)",
        (v: string, acc: string[]) => [...acc, v],
        [] as string[],
      )
      .option(
        '--witness-key <vkey>',
        'for a tlog-proof: a witness whose cosignature the checkpoint must carry (repeatable)',
        (v: string, acc: string[]) => [...acc, v],
        [] as string[],
      ),
  ).action(async (target: string, o: { json?: boolean; witnessPolicy?: string } & TlogProofFlags & TrustFlags) => {
    const print = (line: string) => run.print(line);
    if (isTlogProofFile(target)) {
      run.exitCode = await runVerifyTlogProof(target, o, o.json === true, print, () => new Date());
      return;
    }
    // A URL with --card: that one card, from the log's tiles (VC1).
    if (o.card !== undefined && /^https?:\/\//.test(target) && o.logVkey.length + o.witnessKey.length === 0) {
      run.exitCode = await runVerifyCardOnline(target, { ...o, card: o.card }, o.json === true, print);
      return;
    }
    if (o.card !== undefined || o.logVkey.length > 0 || o.witnessKey.length > 0)
      throw new GspcError(
        'config_invalid',
        '--log-vkey and --witness-key are for a tlog-proof file, --card for a tlog-proof file or a URL',
      );
    run.exitCode = await runVerify(target, o.json === true, print, o.witnessPolicy, trustOf(o));
  });

  program
    .command('witness')
    .description(
      "record witness evidence for the current root (default state of every witness: NOT_YET), or print the log's witness-network entry",
    )
    .option(
      '--kind <kind>',
      'timestamp-proof (an OpenTimestamps .ots proof over the exact /root.json bytes) or transparency-log (cosignature/v1 lines over the log checkpoint)',
    )
    .option('--evidence <file>', 'the evidence file')
    .option(
      '--submit <witness-url>',
      'send the log checkpoint to this tlog-witness (POST <url>/add-checkpoint) and record its cosignature',
    )
    .option(
      '--witness-key <vkey>',
      'C2SP verifier key of a transparency-log witness (repeatable)',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option(
      '--network-entry <url>',
      "print the public witness network's log-list entry (logs/v0) for the log your service serves at <url>, its checkpoint verified under its /log/vkey",
    )
    .option('--qpd <n>', 'with --network-entry: add-checkpoint requests the log may send a witness per day')
    .option('--contact <text>', 'with --network-entry: how to reach the log operator (an address or a URL)')
    .option('--data-dir <dir>', 'where releases are kept (default: $GSPC_DATA_DIR or ./data)')
    .action(async (o: WitnessFlags) => {
      if (o.networkEntry !== undefined) {
        if (o.kind !== undefined || o.evidence !== undefined || o.submit !== undefined || o.witnessKey.length > 0)
          throw new GspcError('config_invalid', '--network-entry takes --qpd and --contact only');
        if (o.qpd === undefined || o.contact === undefined)
          throw new GspcError('config_invalid', '--network-entry needs --qpd <n> and --contact <text>');
        run.print(await networkEntry(o.networkEntry, { qpd: o.qpd, contact: o.contact }));
        return;
      }
      if (o.kind === undefined) throw new GspcError('config_invalid', 'give --kind (or --network-entry <url>)');
      const config = configFor(o.dataDir ? { dataDir: o.dataDir } : {});
      const message = await runWitness(config.dataDir, {
        kind: o.kind,
        witnessKeys: o.witnessKey,
        now: Math.floor(Date.now() / 1000),
        ...(o.evidence !== undefined && { evidence: o.evidence }),
        ...(o.submit !== undefined && { submit: o.submit }),
      });
      run.print(message);
    });

  registerLedgerCommands(program, configFor, run);
  registerCorrectionsCommands(program, configFor, run);
  registerStatusCommands(program, configFor, run);
  registerImportCommand(program, run);
  registerExportCommands(program, configFor, run);
  return program;
}
