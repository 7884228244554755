/**
 * `gspc monitor` as a service (issue 31): polls every `interval` seconds until stopped and, with
 * a metrics port, serves Prometheus metrics on 127.0.0.1 (`/metrics`): alerts by kind, the
 * verified log size, the time of the last poll and whether it was clean, so an alerting rule can
 * page on a fork as on any other metric. A view's failure is an alert for that view
 * (monitor-view.ts), and anything else that goes wrong in a poll is a `poll_failed` alert: the
 * service keeps polling (issue 36: one hostile view once stopped it within a second). Only a
 * state file it must not use (corrupt, or another board's) stops it, as one line.
 */
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Registry } from 'prom-client';
import { GspcError } from '../core/errors.js';
import type { Alert } from '../core/monitor/log-watch.js';
import type { WitnessPolicy } from '../core/evidence/note/witness-policy.js';
import type { MonitorLimits } from './monitor-fetch.js';
import { pollOnce, type PollResult } from './monitor.js';

export interface MonitorServiceOptions {
  views: readonly string[];
  stateDir: string;
  intervalSeconds: number;
  now: () => Date;
  policy?: WitnessPolicy;
  /** tlog-witnesses each newly verified checkpoint is sent to. */
  submitTo?: readonly string[];
  /** Per-request deadline and per-view budget (the defaults unless given). */
  limits?: Partial<MonitorLimits>;
  /** Serve /metrics on 127.0.0.1 at this port (0: any free port). */
  metricsPort?: number;
  /** Each poll's alerts and verified size, as they happen. */
  onPoll(
    alerts: readonly Alert[],
    size: number | undefined,
    submitted: readonly { witness: string; cosigned: boolean }[],
  ): void;
  signal: AbortSignal;
}

export async function runMonitorService(
  o: MonitorServiceOptions,
): Promise<{ metricsUrl?: string; done: Promise<void> }> {
  const registry = new Registry();
  const alerts = new Counter({
    name: 'gspc_monitor_alerts_total',
    help: 'Alerts raised, by kind (fork, rollback, split_view, …)',
    labelNames: ['alert'],
    registers: [registry],
  });
  const size = new Gauge({
    name: 'gspc_monitor_verified_log_size',
    help: 'Entries of the last checkpoint verified',
    registers: [registry],
  });
  const lastPoll = new Gauge({
    name: 'gspc_monitor_last_poll_timestamp_seconds',
    help: 'When the last poll ended',
    registers: [registry],
  });
  const clean = new Gauge({
    name: 'gspc_monitor_last_poll_clean',
    help: '1 when the last poll raised no alert',
    registers: [registry],
  });
  new Gauge({ name: 'gspc_monitor_views', help: 'Views watched', registers: [registry] }).set(o.views.length);
  let server: Server | undefined;
  let metricsUrl: string | undefined;
  if (o.metricsPort !== undefined) {
    server = createServer(async (req, res) => {
      if (req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': registry.contentType }).end(await registry.metrics());
    });
    await new Promise<void>((resolve) => server!.listen(o.metricsPort, '127.0.0.1', resolve));
    metricsUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/metrics`;
  }
  const done = (async () => {
    try {
      while (!o.signal.aborted) {
        const r = await pollOnce(o.views, o.stateDir, o.now, {
          ...(o.policy !== undefined && { policy: o.policy }),
          ...(o.submitTo !== undefined && { submitTo: o.submitTo }),
          ...(o.limits !== undefined && { limits: o.limits }),
        }).catch(failedPoll);
        for (const a of r.alerts) alerts.inc({ alert: a.alert });
        if (r.last !== undefined) size.set(r.last.size);
        lastPoll.set(o.now().getTime() / 1000);
        clean.set(r.alerts.length === 0 ? 1 : 0);
        o.onPoll(r.alerts, r.last?.size, r.submitted);
        // One listener per wait, removed when the wait ends: a long run must not pile them up.
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(t);
            o.signal.removeEventListener('abort', wake);
            resolve();
          };
          const t = setTimeout(wake, o.intervalSeconds * 1000);
          o.signal.addEventListener('abort', wake, { once: true });
        });
      }
    } finally {
      server?.closeAllConnections();
      server?.close();
    }
  })();
  return { ...(metricsUrl !== undefined && { metricsUrl }), done };
}

/** Codes that mean the operator must act before another poll makes sense: the service stops on them. */
const FATAL = new Set(['monitor_state_invalid', 'monitor_state_foreign', 'config_invalid']);

/** A poll that threw (a full disk under the state, a bug): an alert, and the service polls on. */
function failedPoll(e: unknown): PollResult {
  if (e instanceof GspcError && FATAL.has(e.code)) throw e;
  return {
    alerts: [{ alert: 'poll_failed', view: '*', detail: e instanceof Error ? e.message : String(e) }],
    last: undefined,
    submitted: [],
    judged: [],
    log: [],
    conditional: { conditional: 0, notModified: 0 },
  };
}
