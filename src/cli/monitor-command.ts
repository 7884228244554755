/**
 * `gspc monitor <url>... --state <dir> [--once] [--interval <seconds>]` (issue 31): watches one
 * board through every view given (the origin, replicas, mirrors). Each alert is one line of
 * JSON on standard output; a poll without one prints a `{"status":"ok"}` line. With `--once`
 * (for cron) the exit status is 1 when there was an alert.
 */
import type { Command } from 'commander';
import { GspcError } from '../core/errors.js';
import { pollOnce } from '../verify/monitor.js';
import type { CliRun } from './cli-io.js';

export function registerMonitorCommand(program: Command, run: CliRun, now: () => Date): void {
  program
    .command('monitor')
    .description(
      'watch a board over time through one or more views: every checkpoint verified and checked consistent with the last one this monitor verified and across the views; alerts on a fork, a rollback, a changed key without a logged transition, and a release that fails gspc verify',
    )
    .argument('<url...>', 'the views of one board: its origin, replicas, mirrors')
    .requiredOption('--state <dir>', 'where the monitor keeps what it verified (its own memory; back it up)')
    .option('--once', 'poll once and exit: 1 when there was an alert (for cron)')
    .option('--interval <seconds>', 'seconds between polls when not --once', '300')
    .action(async (urls: string[], o: { state: string; once?: boolean; interval: string }) => {
      for (const u of urls)
        if (!/^https?:\/\/[^/]+/.test(u)) throw new GspcError('config_invalid', `${u} is not an http(s) URL of a view`);
      const interval = Number(o.interval);
      if (!Number.isFinite(interval) || interval < 1)
        throw new GspcError('config_invalid', `--interval ${o.interval}: a number of seconds, at least 1`);
      const poll = async () => {
        const r = await pollOnce(urls, o.state, now);
        const time = now().toISOString();
        for (const a of r.alerts) run.print(JSON.stringify({ time, ...a }));
        if (r.alerts.length === 0)
          run.print(JSON.stringify({ time, status: 'ok', views: urls.length, size: r.last?.size, root: r.last?.root }));
        return r.alerts.length;
      };
      if (o.once === true) {
        run.exitCode = (await poll()) > 0 ? 1 : 0;
        return;
      }
      for (;;) {
        await poll();
        await new Promise((resolve) => setTimeout(resolve, interval * 1000));
      }
    });
}
