/**
 * `gspc diff <old> <new> [--json]` (issue 31): what changed between two releases, each a release
 * directory or a service's URL, each verified first as `gspc verify` does (a release that fails
 * is not compared: its numbers are not what it signed). In words, or as `svc.release-diff/1`.
 */
import type { Command } from 'commander';
import { describeDiff, diffReleases } from '../core/board/release-diff.js';
import { GspcError } from '../core/errors.js';
import { type ReleaseSource, sourceOf } from '../verify/release-source.js';
import { verifyRelease } from '../verify/release-verifier.js';
import { readReleaseView } from '../verify/release-view.js';
import type { CliRun } from './cli-io.js';

async function verified(target: string): Promise<ReleaseSource> {
  const src = sourceOf(target);
  const report = await verifyRelease(src);
  if (!report.ok) {
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);
    throw new GspcError(
      'release_invalid',
      `${target} fails gspc verify (${[...failed, ...(report.cards.invalid.length > 0 ? [`${report.cards.invalid.length} invalid cards`] : [])].join('; ')}): it is not compared`,
    );
  }
  return src;
}

export function registerDiffCommand(program: Command, run: CliRun): void {
  program
    .command('diff')
    .description(
      'what changed between two releases (directories or URLs, each verified first): axes, statuses, leaders, separations, n and accuracy, cards, corrections, key transitions',
    )
    .argument('<old>', 'the earlier release: a release directory or a service URL')
    .argument('<new>', 'the later release')
    .option('--json', 'print svc.release-diff/1 JSON')
    .action(async (oldTarget: string, newTarget: string, o: { json?: boolean }) => {
      const [from, to] = [await verified(oldTarget), await verified(newTarget)];
      const diff = diffReleases(await readReleaseView(from), await readReleaseView(to));
      if (o.json === true) run.print(JSON.stringify(diff, null, 2));
      else for (const line of describeDiff(diff)) run.print(line);
    });
}
