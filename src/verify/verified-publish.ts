/**
 * `gspc publish` as an operator runs it: write the release, check it with the same checks as
 * `gspc verify` (signatures, root, log, manifest, every number re-derived from the per-item rows),
 * and only then make it current. A release that fails is removed and the previous release stays
 * current, so the service never serves a release `gspc verify` rejects (issue 16). An unsigned
 * release (`--allow-unsigned`) cannot pass those checks; it is made current unchecked, and the
 * result says so. The whole of it holds the data directory's publish lock (publish-lock.ts).
 */
import { rmSync } from 'node:fs';
import { GspcError } from '../core/errors.js';
import type { EvidenceInputs } from '../release/evidence.js';
import { publishRelease, type PublishOptions, type PublishResult } from '../release/publish.js';
import { switchCurrent } from '../release/data-dir.js';
import { withPublishLock } from '../release/publish-lock.js';
import { dirSource } from './release-source.js';
import { verifyRelease } from './release-verifier.js';

export interface VerifiedPublish extends PublishResult {
  /** The checks passed (`checked`), or were not run because the release is unsigned. */
  verification: { checked: true; checks: number; cards: number } | { checked: false; why: string };
}

export async function publishVerified(
  corpusDir: string,
  dataDir: string,
  signing: Omit<EvidenceInputs, 'previous' | 'previousLog'>,
  opts: Omit<PublishOptions, 'makeCurrent'> & { unsigned?: boolean } = {},
): Promise<VerifiedPublish> {
  return withPublishLock(dataDir, () => publishAndCheck(corpusDir, dataDir, signing, opts));
}

async function publishAndCheck(
  corpusDir: string,
  dataDir: string,
  signing: Omit<EvidenceInputs, 'previous' | 'previousLog'>,
  opts: Omit<PublishOptions, 'makeCurrent'> & { unsigned?: boolean },
): Promise<VerifiedPublish> {
  const r = publishRelease(corpusDir, dataDir, signing, { ...opts, makeCurrent: false });
  if (opts.unsigned === true) {
    switchCurrent(dataDir, r.dir);
    return { ...r, verification: { checked: false, why: 'unsigned (--allow-unsigned): gspc verify cannot pass' } };
  }
  const report = await verifyRelease(dirSource(r.dir));
  if (!report.ok) {
    // A release that was already there (the same bytes published before) is left in place.
    if (!r.reused) rmSync(r.dir, { recursive: true, force: true });
    const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);
    const cards = report.cards.invalid.slice(0, 5).map((v) => `card ${v.sha256 ?? '(no id)'}: ${v.reasons.join('; ')}`);
    throw new GspcError(
      'release_invalid',
      `the release just written (${r.id}) fails the checks of gspc verify, so it was not made current and the previous release stays served: ${[...failed, ...cards].join(' | ')}`,
      { release: r.id, failed },
    );
  }
  switchCurrent(dataDir, r.dir);
  return { ...r, verification: { checked: true, checks: report.checks.length, cards: report.cards.checked } };
}
