/**
 * Keeps the latest observation of every capability rail and refreshes them in the background,
 * so the fabric document is built from the cache and never waits on a probe (issue 5). Each
 * rail is probed independently: a slow or hanging endpoint delays only its own observation,
 * and a probe still running is not started twice.
 */
import { RAILS, type RailDefinition } from '../core/fabric/rails.js';
import { railObservation, type RailObservation } from '../core/fabric/rail-state.js';
import { probeRail, type ProbeOptions } from './fabric-probe.js';

export interface FabricObserverOptions extends ProbeOptions {
  /** How often every rail is probed again (GSPC_FABRIC_REFRESH_SECONDS). */
  refreshMs: number;
  rails?: readonly RailDefinition[];
}

export class FabricObserver {
  private readonly latest = new Map<string, RailObservation>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private readonly rails: readonly RailDefinition[];
  private opts: FabricObserverOptions;

  constructor(opts: FabricObserverOptions) {
    this.opts = opts;
    this.rails = opts.rails ?? RAILS;
  }

  /** Probe another origin from now on (`gspc serve --port 0` learns its port after listening). */
  retarget(origin: string): void {
    this.opts = { ...this.opts, origin };
  }

  /** Starts the background refresh (a first round now, then every refreshMs). Idempotent. */
  start(): void {
    if (this.timer !== undefined) return;
    void this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.opts.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  get started(): boolean {
    return this.timer !== undefined;
  }

  /** Probes every rail with an endpoint; resolves when this round's probes have finished. */
  refresh(): Promise<void> {
    return Promise.all(this.rails.filter((r) => r.probe !== null).map((r) => this.probe(r))).then(() => undefined);
  }

  private probe(def: RailDefinition): Promise<void> {
    const running = this.inFlight.get(def.id);
    if (running) return running;
    const p = probeRail(def, this.opts)
      .then((outcome) => {
        this.latest.set(def.id, railObservation(def, outcome));
      })
      .finally(() => this.inFlight.delete(def.id));
    this.inFlight.set(def.id, p);
    return p;
  }

  /** The latest observation per rail id (rails never observed are absent). */
  snapshot(): ReadonlyMap<string, RailObservation> {
    return this.latest;
  }
}
