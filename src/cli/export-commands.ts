/**
 * `gspc export eee <release-dir|base-url> --out <dir>`: the published board as Every Eval Ever
 * records (docs/import.md, "Export to Every Eval Ever"); it reads no configuration.
 * `gspc export static <release-dir|data-dir> --out <dir>`: a static mirror of a release for nginx
 * or a CDN (docs/operations.md, "A static mirror"); it reads the keys and the rail configuration
 * as `gspc serve` does, so the documents are the ones the service serves.
 */
import type { Command } from 'commander';
import type { ConfigSource } from '../config.js';
import type { CliRun } from './cli-io.js';

export function registerExportCommands(program: Command, configFor: ConfigSource, run: CliRun): void {
  const exp = program.command('export').description('write the published board in another format');
  exp
    .command('eee')
    .description(
      'write every MEASURED model-comparison cell as Every Eval Ever (schema 0.3.0) aggregate and instance records',
    )
    .argument(
      '<release-dir|base-url>',
      'a release directory (or a data directory: its current release) or a running service (http…)',
    )
    .requiredOption(
      '--out <dir>',
      'where to write data/<axis>/<developer>/<model>/<uuid>.json and <uuid>_samples.jsonl',
    )
    .action(async (target: string, o: { out: string }) => {
      // Loaded when run: every other command starts without the exporter.
      const { exportEee } = await import('../export/export-eee.js');
      const r = await exportEee(target, o.out);
      run.print(
        `exported ${r.origin}: ${r.evaluations} evaluations, ${r.rows} instance records, ${r.files.length} files in ${o.out}`,
      );
      for (const s of r.skipped) run.print(`  not exported: ${s}`);
    });

  exp
    .command('static')
    .description(
      "write a release's free, release-bound GET documents as files: files/ with mirror.json and an nginx.conf that serves them with the service's headers, and site/, the same documents at their own paths for any static host (python3 -m http.server, a bucket, a CDN; headers in site/_headers and site-objects.json)",
    )
    .argument('<release-dir|data-dir>', 'a release directory, or a data directory (its current release)')
    .requiredOption('--out <dir>', 'where to write files/, mirror.json, nginx.conf, site/ and site-objects.json')
    .option('--key-dir <dir>', "the keys the release was published with (default: the data directory's keys/)")
    .option('--listen <port|host:port>', "nginx.conf's listen (default 8080)")
    .option('--allow-unsigned', 'export even without a usable board key (the mirrored board is then unsigned)')
    .action(async (target: string, o: { out: string; keyDir?: string; listen?: string; allowUnsigned?: boolean }) => {
      const config = configFor();
      // Loaded when run: the service is most of the CLI's start-up time.
      const { exportStatic } = await import('../mirror.js');
      const r = await exportStatic(target, o.out, {
        ...(o.keyDir !== undefined && { keyDir: o.keyDir }),
        ...(o.listen !== undefined && { listen: o.listen }),
        ...(o.allowUnsigned === true && { allowUnsigned: true }),
        ...(config.token !== undefined && { token: config.token }),
        products: { rail: config.rail },
      });
      run.print(
        `mirrored release ${r.release} of ${r.origin}: ${r.documents} documents, ${r.bytes} bytes, in ${o.out} (files/, mirror.json, nginx.conf, site/, site-objects.json)`,
      );
      run.print(
        `  site/ is the same as plain files for any static host (python3 -m http.server, a bucket, a CDN: headers in site/_headers and site-objects.json), ${r.site.files} paths; the ${r.site.byQuery.length} paths with a query (/api/gspc?axis=…) need a server that maps them, as nginx.conf does`,
      );
      run.print(`check it with: gspc verify <the mirror's URL>`);
    });
}
