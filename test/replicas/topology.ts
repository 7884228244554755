/**
 * The replica topology of issue 17, started by a test file on loopback: a publisher's data
 * directory (keys, the demo published for the balancer's origin) served as static files by nginx
 * (the release store), three `gspc serve` replicas on one fresh PostgreSQL database, each given
 * its release by `gspc pull` over HTTP, and nginx balancing over them without stickiness. Every
 * process stops when the file ends.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { gspc } from '../helpers/cli.js';
import { startNginx } from '../helpers/nginx.js';
import { freePort, start, waitFor } from '../helpers/process.js';
import type { SoftToken } from '../helpers/softhsm.js';
import { demoCopy, tempDir } from '../helpers/tmp.js';
import { freshDatabaseUrl } from '../store/postgres-harness.js';

export interface Replica {
  dataDir: string;
  port: number;
  url: string;
  child: ChildProcess;
  output: () => string;
}

export interface Topology {
  /** The public origin every replica answers as (did:web names a host, never an IP). */
  origin: string;
  /** The balancer, as the tests fetch it. */
  lb: string;
  /** The release store: the publisher's data directory over HTTP. */
  store: string;
  publisher: string;
  database: string;
  replicas: Replica[];
  /** nginx's error log so far (for assertion messages). */
  nginxErrors(): string;
  /** Starts replica `i` again (after a kill) on its port and data directory; resolves when it answers. */
  restart(i: number): Promise<Replica>;
}

export const ok = async (args: string[], env: Record<string, string> = {}): Promise<string> => {
  const r = await gspc(args, env);
  assert.equal(r.status, 0, `gspc ${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return r.stdout;
};

/**
 * `token`: the publisher and every replica sign through this PKCS#11 token (issue 30) instead
 * of the publisher's key files: no keygen, no key directory anywhere.
 */
export async function startTopology(
  replicaEnv: Record<string, string> = {},
  replicas = 3,
  token?: SoftToken,
): Promise<Topology> {
  const [lbPort, storePort, ...replicaPorts] = await Promise.all(
    Array.from({ length: replicas + 2 }, () => freePort()),
  );
  const origin = `http://localhost:${lbPort}`;
  const store = `http://127.0.0.1:${storePort}`;
  const publisher = tempDir('gspc-publisher-');
  const signer = token?.env ?? {};
  if (token === undefined) await ok(['keygen', '--data-dir', publisher]);
  await ok(['publish', demoCopy(), '--data-dir', publisher, '--public-url', origin], signer);
  const database = await freshDatabaseUrl();
  // max_fails=0: a replica that refuses a connection is skipped for that request only, never
  // marked down for a while (with marking, the replicas' own start-up probes of the origin, made
  // while their siblings were still starting, had marked every replica down: 502 for seconds).
  const upstreams = replicaPorts!.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n');
  const nginx = await startNginx(
    (first) => `
  upstream gspc_replicas {
${upstreams}
  }
  # the balancer: no stickiness; a request a replica cannot take (connection refused) goes to the next
  server {
    listen 127.0.0.1:${lbPort};
    location / {
      proxy_pass http://gspc_replicas;
      # the client's Host: /mcp refuses any other (DNS-rebinding protection)
      proxy_set_header Host $http_host;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 1s;
      # a 402's PAYMENT-REQUIRED header and a paid answer's receipt headers exceed nginx's 4k default
      proxy_buffer_size 64k;
      proxy_buffers 8 64k;
    }
  }
  # the publisher's data directory as static files: where replicas pull releases from
  server {
    listen 127.0.0.1:${storePort};
    root ${publisher};
    location /keys/ { return 404; }
  }
  server { listen 127.0.0.1:${first}; return 204; }`,
  );
  // Every test client is 127.0.0.1, as is the balancer: per-client limits would count them all
  // as one buyer (the limits have their own test, test/serve/operability.e2e.test.ts).
  const env = {
    GSPC_DATABASE_URL: database,
    GSPC_RELOAD_INTERVAL_MS: '100',
    GSPC_LOG_LEVEL: 'silent',
    GSPC_RATE_LIMITS: 'off',
    ...signer,
    ...(token && { SOFTHSM2_CONF: process.env.SOFTHSM2_CONF! }),
    ...replicaEnv,
  };
  const serve = async (dataDir: string, port: number): Promise<Replica> => {
    const keys = token === undefined ? ['--key-dir', join(publisher, 'keys')] : [];
    const args = ['serve', '--data-dir', dataDir, ...keys, '--port', String(port)];
    const { child, output } = start(process.execPath, ['bin/gspc.js', ...args, '--public-url', origin], env);
    const url = `http://127.0.0.1:${port}`;
    await waitFor(`${url}/healthz`, 20_000, output);
    return { dataDir, port, url, child, output };
  };
  const dirs: string[] = [];
  for (let i = 0; i < replicas; i++) {
    const dataDir = tempDir('gspc-replica-');
    await ok(['pull', store, '--data-dir', dataDir, '--public-url', origin], signer);
    dirs.push(dataDir);
  }
  const topology: Topology = {
    origin,
    lb: `http://127.0.0.1:${lbPort}`,
    store,
    publisher,
    database,
    nginxErrors: nginx.errors,
    replicas: await Promise.all(dirs.map((d, i) => serve(d, replicaPorts![i]!))),
    async restart(i) {
      const r = topology.replicas[i]!;
      topology.replicas[i] = await serve(r.dataDir, r.port);
      return topology.replicas[i]!;
    },
  };
  return topology;
}
