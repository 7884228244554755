/**
 * `gspc diff <old> <new> [--json] [--allow-rollback] [--allow-other-board] [--trust-did-document
 * <file>] [--trust-key <key>]...` (issue 31): what changed between two releases, each a release
 * directory, a data directory (its current release) or a service's URL, each verified first as
 * `gspc verify` does (a release that fails is not compared: its numbers are not what it signed),
 * its keys anchored as `gspc verify` anchors them (issue 36): at the DID's host, or at the
 * reader's own anchor, so two mirrors can be compared while the origin is down. In words, or as
 * `svc.release-diff/1`.
 *
 * Which way (issue 39): the diff reads old → new, and says so. A second release whose log is
 * shorter than the first's (a rollback, or the arguments swapped: every card added would read as
 * gone) or not an extension of it (a fork), or of another board (another DID), is refused unless
 * the reader asks for that comparison (`--allow-rollback`, `--allow-other-board`; decision DF1).
 */
import type { Command } from 'commander';
import { describeDiff, diffReleases } from '../core/board/release-diff.js';
import { BACKWARDS, directionOf, type ReleaseLog } from '../core/board/release-order.js';
import { GspcError } from '../core/errors.js';
import { parseCheckpoint } from '../core/evidence/note/checkpoint.js';
import { parseNote } from '../core/evidence/note/signed-note.js';
import type { ReaderAnchor } from '../core/verify/key-source.js';
import { readerAnchor } from '../verify/key-anchor-source.js';
import { parseDocument, type ReleaseSource, sourceOf } from '../verify/release-source.js';
import { verifyRelease } from '../verify/release-verifier.js';
import { readReleaseView } from '../verify/release-view.js';
import type { CliRun } from './cli-io.js';
import { type TrustFlags, withTrustOptions } from './verify.js';

/** What `gspc diff` reads of a side besides its view: the documents that name its board and log. */
const LOG_PATHS = ['/.well-known/did.json', '/release/public-keys.json', '/log/entries.json', '/log/checkpoint'];

/** A side verified, with the bytes of its board and log exactly as `gspc verify` checked them. */
interface VerifiedSide {
  src: ReleaseSource;
  log: ReleaseLog;
}

/**
 * The source, keeping the bytes of LOG_PATHS as the verifier reads them: the log compared is the
 * one verified, not a second fetch a server could answer differently.
 */
function keeping(source: ReleaseSource): { src: ReleaseSource; kept: Map<string, Buffer | undefined> } {
  const kept = new Map<string, Buffer | undefined>();
  const get = async (path: string) => {
    const bytes = await source.get(path);
    if (LOG_PATHS.includes(path)) kept.set(path, bytes);
    return bytes;
  };
  return { src: { ...source, get }, kept };
}

/** The board's DID and the log of a verified side (its DID document, or a directory's public keys). */
async function logOf(target: string, read: (path: string) => Promise<Buffer | undefined>, live: boolean) {
  const did = live
    ? parseDocument<{ id?: unknown }>(await read('/.well-known/did.json'))?.id
    : parseDocument<{ did?: unknown }>(await read('/release/public-keys.json'))?.did;
  const entries = parseDocument<{ entries?: unknown }>(await read('/log/entries.json'))?.entries;
  const note = parseNote((await read('/log/checkpoint')) ?? Buffer.alloc(0));
  const checkpoint = note.ok ? parseCheckpoint(note.text) : undefined;
  // `gspc verify` passed, so these are there; a side without them is not compared.
  if (typeof did !== 'string' || !Array.isArray(entries) || checkpoint?.ok !== true)
    throw new GspcError(
      'release_invalid',
      `${target} has no DID, card log or checkpoint to compare: it is not compared`,
    );
  return {
    did,
    entries: entries as string[],
    root: Buffer.from(checkpoint.checkpoint.rootHash).toString('hex'),
  } satisfies ReleaseLog;
}

async function verified(target: string, anchor: ReaderAnchor | undefined): Promise<VerifiedSide> {
  const { src, kept } = keeping(sourceOf(target));
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
  const read = async (path: string) => (kept.has(path) ? kept.get(path) : src.get(path));
  return { src, log: await logOf(target, read, src.live) };
}

interface DiffFlags {
  json?: boolean;
  allowRollback?: boolean;
  allowOtherBoard?: boolean;
}

/**
 * The refusal of an order the reader did not ask for, or the flag that allowed it. Another board
 * is refused before its log is read as a rollback or fork: two boards' logs are not comparable.
 */
function allowedBy(
  [oldTarget, newTarget]: [string, string],
  direction: ReturnType<typeof directionOf>,
  o: DiffFlags,
): string | undefined {
  const what = `gspc diff ${oldTarget} ${newTarget}`;
  if (direction.log === 'other_board') {
    if (o.allowOtherBoard === true) return '--allow-other-board';
    throw new GspcError(
      'release_other_board',
      `${what}: ${direction.detail}. Nothing is compared; to compare two boards, pass --allow-other-board`,
    );
  }
  if (BACKWARDS.includes(direction.log)) {
    if (o.allowRollback === true) return '--allow-rollback';
    throw new GspcError(
      'release_not_successor',
      `${what}: ${direction.detail}. Nothing is compared; to compare them in this order anyway, pass --allow-rollback`,
    );
  }
  return undefined;
}

export function registerDiffCommand(program: Command, run: CliRun): void {
  withTrustOptions(
    program
      .command('diff')
      .description(
        'what changed from an older release to a newer one of the same board (directories, data directories or URLs, each verified first): axes, statuses, leaders, separations, n and accuracy, cards, corrections, key transitions; the second log must extend the first',
      )
      .argument(
        '<old>',
        'the earlier release: a release directory, a data directory (its current release) or a service URL',
      )
      .argument('<new>', 'the later release, of the same board: its log extends the first one’s')
      .option('--json', 'print svc.release-diff/1 JSON')
      .option(
        '--allow-rollback',
        'compare even when the second log is shorter than the first (a rollback, or the arguments swapped) or not its extension (a fork); the diff then warns',
      )
      .option(
        '--allow-other-board',
        'compare two releases of different boards (other DIDs); the diff then warns, and their logs are not compared',
      ),
  ).action(async (oldTarget: string, newTarget: string, o: DiffFlags & TrustFlags) => {
    // The anchor is read before anything is fetched: a bad file is refused first.
    const anchor = readerAnchor(o.trustDidDocument, o.trustKey);
    const [from, to] = [await verified(oldTarget, anchor), await verified(newTarget, anchor)];
    // Refused (or allowed) before the views are read: a refused order reads nothing more.
    const allowed = allowedBy([oldTarget, newTarget], directionOf(from.log, to.log), o);
    const diff = diffReleases(await readReleaseView(from.src), await readReleaseView(to.src), {
      from: from.log,
      to: to.log,
    });
    const shown = allowed === undefined ? diff : { ...diff, direction: { ...diff.direction!, allowed_by: allowed } };
    if (o.json === true) run.print(JSON.stringify(shown, null, 2));
    else for (const line of describeDiff(shown)) run.print(line);
  });
}
