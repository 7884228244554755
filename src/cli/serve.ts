/**
 * `gspc serve`: load a release, prepare its bytes, listen. When serving the data directory's
 * current release, a newly published release is picked up (polled, and at once on SIGHUP);
 * a release that fails to load is logged and the previous one stays served.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { buildApp } from '../http/app.js';
import { ServedState, unsignedLiveState } from '../http/served-state.js';
import { currentReleaseDir, loadRelease } from '../release/load.js';
import { publishRelease } from '../release/publish.js';

export interface ServeOptions {
  releaseDir?: string;
  demoCorpusDir: string;
}

export async function serve(config: Config, opts: ServeOptions): Promise<FastifyInstance> {
  let dir = opts.releaseDir;
  const followCurrent = dir === undefined;
  if (dir === undefined) {
    dir = currentReleaseDir(config.dataDir);
    if (dir === undefined) dir = publishRelease(opts.demoCorpusDir, config.dataDir).dir;
  }
  const state = new ServedState(loadRelease(dir), unsignedLiveState());
  const app = buildApp({ state, logLevel: config.logLevel, accessLog: config.accessLog });

  if (followCurrent) {
    let servedDir = dir;
    const check = () => {
      const next = currentReleaseDir(config.dataDir);
      if (next === undefined || next === servedDir) return;
      try {
        state.swap(loadRelease(next));
        servedDir = next;
        app.log.info({ release: state.current().release.id }, 'serving newly published release');
      } catch (err) {
        app.log.error({ err, dir: next }, 'new release failed to load; the previous release stays served');
      }
    };
    if (config.reloadIntervalMs > 0) setInterval(check, config.reloadIntervalMs).unref();
    process.on('SIGHUP', check);
  }
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => { void app.close().then(() => process.exit(0)); });
  }
  await app.listen({ port: config.port, host: config.host });
  const { port } = app.server.address() as { port: number };
  const baseUrl = process.env.GSPC_BASE_URL ? config.baseUrl : `http://localhost:${port}`;
  app.log.info({ release: state.current().release.id, board: `${baseUrl}/api/gspc` }, 'gspc board serving');
  return app;
}
