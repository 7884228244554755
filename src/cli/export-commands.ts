/**
 * `gspc export eee <release-dir|base-url> --out <dir>`: the published board as Every Eval Ever
 * records (docs/import.md, "Export to Every Eval Ever"). It reads no configuration: the release
 * and the output are the command's arguments.
 */
import type { Command } from 'commander';
import type { CliRun } from './cli-io.js';

export function registerExportCommands(program: Command, run: CliRun): void {
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
}
