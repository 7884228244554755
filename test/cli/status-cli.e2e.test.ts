/**
 * The status commands as an operator runs them (in-process through `main()`, the
 * compiled bin once), each with the SQLite ledger
 * chosen only by the test: `gspc action-jobs record | verify` (with tampering done directly in the
 * file) and `gspc heartbeat`, whose beat GET /api/oracle-fleet then shows. The documents
 * themselves are tested in-process in test/status/action-jobs.test.ts and oracle-fleet.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { buildApp } from '../../src/app.js';
import { NO_SOURCES } from '../../src/serve/context.js';
import { openLedger } from '../../src/store/open-ledger.js';
import { demoApp } from '../helpers/app.js';
import { gspc as runInProcess } from '../helpers/cli.js';
import { runCli } from '../helpers/process.js';
import { repoRoot } from '../helpers/repo.js';
import { tempDir } from '../helpers/tmp.js';

if (!existsSync(join(repoRoot, 'dist', 'cli', 'main.js'))) {
  throw new Error('dist/ is missing: the CLI tests run the compiled bin; run `npm run build` (npm test does it first)');
}

const dir = tempDir('gspc-status-cli-');

/** `gspc` in-process with the ledger chosen only by the test; `viaBin` runs the compiled bin. */
const gspc = (args: string[], ledgerPath: string) => runInProcess(args, { GSPC_LEDGER_PATH: ledgerPath });
const viaBin = (args: string[], ledgerPath: string) => runCli(args, { GSPC_LEDGER_PATH: ledgerPath });

/** What an attacker with write access to the file can do: drop the guards and rewrite rows. */
function tamper(path: string, sql: string): void {
  const db = new Database(path);
  try {
    db.exec('DROP TRIGGER IF EXISTS action_receipts_frozen; DROP TRIGGER IF EXISTS action_receipts_keep;');
    db.prepare(sql).run();
  } finally {
    db.close();
  }
}

describe('gspc action-jobs (CLI)', () => {
  it('record writes an intent and its refusal; verify says INTACT (exit 0), then BROKEN after tampering (exit 1); record refuses to extend it', async () => {
    const path = join(dir, 'action-jobs.sqlite');
    const recorded = await gspc(
      ['action-jobs', 'record', '--action', 'svc.regulation.deadlines.read', '--reason', 'quarterly check', '--json'],
      path,
    );
    assert.equal(recorded.status, 0, recorded.stderr);
    const { intent, refusal } = JSON.parse(recorded.stdout) as {
      intent: { seq: number; body: string };
      refusal: { seq: number; body: string };
    };
    assert.deepEqual([intent.seq, refusal.seq], [1, 2]);
    assert.deepEqual(
      [JSON.parse(intent.body).state, JSON.parse(intent.body).reason, JSON.parse(refusal.body).state],
      ['REQUESTED', 'quarterly check', 'REFUSED'],
    );
    const ok = await gspc(['action-jobs', 'verify'], path);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^action-job chain INTACT: 2 receipts/);
    const bad = await gspc(['action-jobs', 'record', '--action', 'svc.shell.exec'], path);
    assert.notEqual(bad.status, 0);
    tamper(path, `UPDATE action_receipts SET body = replace(body, 'quarterly', 'monthly') WHERE seq = 1`);
    // The compiled bin, once: its exit status is the command's.
    const broken = viaBin(['action-jobs', 'verify'], path);
    assert.equal(broken.status, 1);
    assert.match(broken.stdout, /BROKEN at seq 1/);
    const refused = await gspc(['action-jobs', 'record', '--action', 'svc.gspc.board.read'], path);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /BROKEN.*nothing was recorded/);
    const db = new Database(path, { readonly: true });
    assert.equal((db.prepare('SELECT count(*) AS n FROM action_receipts').get() as { n: number }).n, 2);
    db.close();
  });
});

describe('gspc heartbeat (CLI)', () => {
  it('records a beat the document then shows as FRESH; a bad slug exits 2 and records nothing', async () => {
    const path = join(dir, 'heartbeat.sqlite');
    const ok = await gspc(['heartbeat', '--source', 'watchdog', '--note', 'cron on host-b'], path);
    assert.equal(ok.status, 0, ok.stderr);
    const recordedAt = /recorded at (\S+)$/m.exec(ok.stdout)![1]!;
    const bad = await gspc(['heartbeat', '--source', 'Not A Slug'], path);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /source must be a lowercase slug/);
    const ledger = await openLedger({ sqlitePath: path });
    after(() => ledger.close());
    const app = buildApp({
      state: demoApp().state,
      logLevel: 'silent',
      now: () => new Date(Date.parse(recordedAt) + 5000),
      sources: NO_SOURCES,
      ledger,
    });
    after(() => app.close());
    const doc = (await app.inject({ method: 'GET', url: '/api/oracle-fleet' })).json() as Record<string, any>;
    assert.deepEqual([doc.watchdog.state, doc.watchdog.last_seen, doc.watchdog.age_seconds], ['FRESH', recordedAt, 5]);
    assert.deepEqual(
      doc.heartbeats.map((h: any) => [h.source, h.beats, h.note]),
      [['watchdog', 1, 'cron on host-b']],
    );
  });
});
