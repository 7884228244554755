/**
 * `gspc diff <old> <new> [--json] [--trust-did-document <file>] [--trust-key <key>]...` (issue
 * 31): what changed between two releases, each a release directory or a service's URL, each
 * verified first as `gspc verify` does (a release that fails is not compared: its numbers are not
 * what it signed), its keys anchored as `gspc verify` anchors them (issue 36): at the DID's host,
 * or at the reader's own anchor, so two mirrors can be compared while the origin is down. In
 * words, or as `svc.release-diff/1`.
 */
import type { Command } from 'commander';
import { describeDiff, diffReleases } from '../core/board/release-diff.js';
import { GspcError } from '../core/errors.js';
import type { ReaderAnchor } from '../core/verify/key-source.js';
import { readerAnchor } from '../verify/key-anchor-source.js';
import { type ReleaseSource, sourceOf } from '../verify/release-source.js';
import { verifyRelease } from '../verify/release-verifier.js';
import { readReleaseView } from '../verify/release-view.js';
import type { CliRun } from './cli-io.js';
import { type TrustFlags, withTrustOptions } from './verify.js';

async function verified(target: string, anchor: ReaderAnchor | undefined): Promise<ReleaseSource> {
  const src = sourceOf(target);
  const report = await verifyRelease(src, anchor === undefined ? {} : { anchor });
  if (!report.ok) {
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);
    // UNVERIFIABLE_KEY: every other check passes, but the keys could not be anchored (the DID's
    // host is down): the key_anchor detail says how to bring an anchor of one's own.
    const verdict = report.verdict === 'UNVERIFIABLE_KEY' ? 'is UNVERIFIABLE_KEY to gspc verify' : 'fails gspc verify';
    throw new GspcError(
      'release_invalid',
      `${target} ${verdict} (${[...failed, ...(report.cards.invalid.length > 0 ? [`${report.cards.invalid.length} invalid cards`] : [])].join('; ')}): it is not compared`,
    );
  }
  return src;
}

export function registerDiffCommand(program: Command, run: CliRun): void {
  withTrustOptions(
    program
      .command('diff')
      .description(
        'what changed between two releases (directories or URLs, each verified first): axes, statuses, leaders, separations, n and accuracy, cards, corrections, key transitions',
      )
      .argument('<old>', 'the earlier release: a release directory or a service URL')
      .argument('<new>', 'the later release')
      .option('--json', 'print svc.release-diff/1 JSON'),
  ).action(async (oldTarget: string, newTarget: string, o: { json?: boolean } & TrustFlags) => {
    // The anchor is read before anything is fetched: a bad file is refused first.
    const anchor = readerAnchor(o.trustDidDocument, o.trustKey);
    const [from, to] = [await verified(oldTarget, anchor), await verified(newTarget, anchor)];
    const diff = diffReleases(await readReleaseView(from), await readReleaseView(to));
    if (o.json === true) run.print(JSON.stringify(diff, null, 2));
    else for (const line of describeDiff(diff)) run.print(line);
  });
}
