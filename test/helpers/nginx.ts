/**
 * Debian's nginx, started by a test on loopback with its own prefix in a temporary directory
 * (issue 17: the static mirror's server, the replicas' load balancer). `npm test` runs
 * scripts/ensure-debian.mjs first, which installs it when it can; without it, these tests skip
 * and say why (never silently). Each nginx stops when its test file ends.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, start, waitFor } from './process.js';
import { tempDir } from './tmp.js';

export const NGINX = process.env.GSPC_NGINX ?? '/usr/sbin/nginx';

/** Why the nginx tests cannot run here, or undefined when they can. */
export function nginxMissing(): string | undefined {
  return existsSync(NGINX)
    ? undefined
    : `no nginx at ${NGINX} (install Debian's nginx: apt-get install -y nginx; npm test does it when run as root)`;
}

/**
 * A whole nginx configuration with everything under `prefix` (pid, logs, temporary files) and
 * `http` inside its `http {}` block; one worker, access logging off. The bench uses it too.
 */
export function nginxConfig(prefix: string, http: string, workerConnections = 1024): string {
  return [
    // Run as root (CI), nginx's workers would be `nobody`, who cannot read the tests' private
    // temporary directories: they run as the invoking user instead.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'worker_processes 1;',
    'daemon off;',
    `pid ${join(prefix, 'nginx.pid')};`,
    `error_log ${join(prefix, 'logs', 'error.log')} warn;`,
    `events { worker_connections ${workerConnections}; }`,
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(prefix, t)};`),
    '  map_hash_bucket_size 128;',
    http,
    '}',
    '',
  ].join('\n');
}

/**
 * Starts nginx with `http` inside its `http {}` block (a server listening on `port`); resolves
 * once the port answers. Access logging off, one worker, every path under the test's temp dir.
 */
export async function startNginx(
  http: (port: number) => string,
): Promise<{ url: string; port: number; errors: () => string }> {
  const prefix = tempDir('gspc-nginx-');
  mkdirSync(join(prefix, 'logs'));
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(conf, nginxConfig(prefix, http(port)));
  const { output } = start(NGINX, ['-p', prefix, '-c', conf], {});
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/`, 10_000, output);
  const errors = () => {
    try {
      return readFileSync(join(prefix, 'logs', 'error.log'), 'utf8');
    } catch {
      return '(no error log)';
    }
  };
  return { url, port, errors };
}
