/**
 * `gspc monitor <url>... --state <dir> [--once] [--interval <seconds>]` (issue 31): watches one
 * board through every view given (the origin, replicas, mirrors). Each alert is one line of
 * JSON on standard output; a poll without one prints a `{"status":"ok"}` line. With `--once`
 * (for cron) the exit status is 1 when there was an alert; otherwise it polls until SIGINT or
 * SIGTERM, with Prometheus metrics on `--metrics-port`. Every request a view answers has a
 * deadline (`--timeout`) and each view a budget per poll (`--view-budget`): a slow view is an
 * alert, not a stalled monitor.
 */
import type { Command } from 'commander';
import { GspcError } from '../core/errors.js';
import { type PollAlert, pollOnce } from '../verify/monitor.js';
import { runMonitorService } from '../verify/monitor-service.js';
import { readPolicy } from './verify.js';
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
    .option(
      '--witness-policy <file>',
      "a C2SP tlog-policy: each view's checkpoint must carry its quorum of cosignatures",
    )
    .option(
      '--submit-witness <url...>',
      'send each newly verified checkpoint to these C2SP tlog-witnesses (add-checkpoint)',
    )
    .option('--metrics-port <port>', 'when not --once: serve Prometheus metrics on 127.0.0.1:<port>/metrics')
    .option('--timeout <seconds>', 'deadline of each request to a view (alert view_timeout)', '15')
    .option(
      '--view-budget <seconds>',
      'what one view may take per poll, its full verification included (alert view_timeout)',
      '300',
    )
    .action(
      async (
        urls: string[],
        o: {
          state: string;
          once?: boolean;
          interval: string;
          witnessPolicy?: string;
          metricsPort?: string;
          submitWitness?: string[];
          timeout: string;
          viewBudget: string;
        },
      ) => {
        for (const u of urls)
          if (!/^https?:\/\/[^/]+/.test(u))
            throw new GspcError('config_invalid', `${u} is not an http(s) URL of a view`);
        const interval = Number(o.interval);
        if (!Number.isFinite(interval) || interval < 1)
          throw new GspcError('config_invalid', `--interval ${o.interval}: a number of seconds, at least 1`);
        const metricsPort = o.metricsPort === undefined ? undefined : Number(o.metricsPort);
        if (metricsPort !== undefined && !(Number.isInteger(metricsPort) && metricsPort >= 0 && metricsPort < 65536))
          throw new GspcError('config_invalid', `--metrics-port ${o.metricsPort}: a port number`);
        const policy = o.witnessPolicy === undefined ? undefined : readPolicy(o.witnessPolicy);
        for (const w of o.submitWitness ?? [])
          if (!/^https?:\/\/[^/]+/.test(w))
            throw new GspcError('config_invalid', `--submit-witness ${w}: an http(s) URL`);
        const seconds = (flag: string, text: string) => {
          const n = Number(text);
          if (!Number.isFinite(n) || n <= 0)
            throw new GspcError('config_invalid', `${flag} ${text}: a number of seconds`);
          return n * 1000;
        };
        const limits = {
          requestTimeoutMs: seconds('--timeout', o.timeout),
          viewBudgetMs: seconds('--view-budget', o.viewBudget),
        };
        const pollOptions = {
          limits,
          ...(policy !== undefined && { policy }),
          ...(o.submitWitness !== undefined && { submitTo: o.submitWitness }),
        };
        const report = (
          alerts: readonly PollAlert[],
          size: number | undefined,
          submitted: readonly { witness: string; cosigned: boolean }[] = [],
        ) => {
          const time = now().toISOString();
          // An alert about a witness names it as `witness`, as the `submitted` line does, not as a view.
          for (const a of alerts)
            run.print(
              JSON.stringify(
                a.witness === undefined
                  ? { time, ...a }
                  : { time, alert: a.alert, witness: a.witness, detail: a.detail },
              ),
            );
          for (const s of submitted) run.print(JSON.stringify({ time, status: 'submitted', ...s }));
          if (alerts.length === 0) run.print(JSON.stringify({ time, status: 'ok', views: urls.length, size }));
        };
        if (o.once === true) {
          const r = await pollOnce(urls, o.state, now, pollOptions);
          report(r.alerts, r.last?.size, r.submitted);
          run.exitCode = r.alerts.length > 0 ? 1 : 0;
          return;
        }
        const stop = new AbortController();
        for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort());
        const service = await runMonitorService({
          views: urls,
          stateDir: o.state,
          intervalSeconds: interval,
          now,
          ...pollOptions,
          ...(metricsPort !== undefined && { metricsPort }),
          onPoll: report,
          signal: stop.signal,
        });
        if (service.metricsUrl !== undefined) run.warn(`gspc monitor: metrics on ${service.metricsUrl}`);
        await service.done;
      },
    );
}
