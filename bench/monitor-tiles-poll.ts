/**
 * `gspc monitor` polling a log served as C2SP tlog-tiles (issue 42, item 3; docs/performance.md
 * §19): `node --import tsx bench/monitor-tiles-poll.ts [sizes...]` (default 10,000, 1,000,000 and
 * 10,000,000 entries; standalone, not in `npm run bench`). For each size, a log of synthetic
 * 32-byte entries is built in memory and served over HTTP on 127.0.0.1 by the test server of
 * test/monitor/tiled-log.ts (checkpoint, tiles, bundles, a DID document with an ETag; every
 * release document 404). The monitor's state is set to the size 1,000 entries back, as a clean
 * poll would have left it, and `pollOnce` (what `gspc monitor --once` runs) polls: the unchanged
 * log, then after 1,000 new entries. Each poll is timed and its requests and bytes counted by the
 * server. Goal (issue 42): under 1 s and 100 kB a poll at 10,000,000 entries.
 */
import { STATE_SCHEMA } from '../src/core/monitor/monitor-state.js';
import { pollOnce } from '../src/verify/monitor.js';
import { releaseDigest } from '../src/verify/monitor-documents.js';
import { boundedGet, DEFAULT_LIMITS } from '../src/verify/monitor-fetch.js';
import { writeMonitorState } from '../src/verify/monitor-state-file.js';
import { costOf, syntheticLog, tiledView } from '../test/monitor/tiled-log.js';
import { tempDir } from '../test/helpers/tmp.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

async function measure(n: number) {
  const t0 = performance.now();
  const log = syntheticLog(n);
  const build = (performance.now() - t0) / 1000;
  const view = await tiledView(log, n - 1000);
  const dir = tempDir();
  writeMonitorState(dir, {
    schema: STATE_SCHEMA,
    views: [view.url],
    last: { size: n - 1000, root: hex(log.rootAt(n - 1000)), boardKey: view.boardX },
    did: view.did,
    documents: { [view.url]: await releaseDigest(boundedGet(view.url, DEFAULT_LIMITS, new AbortController().signal)) },
    transition_leaves: {},
  });
  const poll = async () => {
    view.log.length = 0;
    const t = performance.now();
    const r = await pollOnce([view.url], dir, () => new Date());
    const ms = performance.now() - t;
    if (r.alerts.length > 0) throw new Error(JSON.stringify(r.alerts));
    return { ms, cost: costOf(view.log) };
  };
  await poll(); // fills the DID documents' cache, as any poll after the first
  const same = await poll();
  view.size = n;
  const grown = await poll();
  view.close();
  const line = (p: typeof same) =>
    `${p.cost.requests} requests (${p.cost.checkpoints} checkpoint, ${p.cost.tiles} tiles ${p.cost.tileBytes} B, ${p.cost.bundles} bundles ${p.cost.bundleBytes} B, ${p.cost.notModified} 304, ${p.cost.notFound} 404), ${p.cost.bytes} body bytes, ${p.ms.toFixed(1)} ms`;
  console.log(`${n.toLocaleString('en')} entries (tree ${build.toFixed(1)} s)`);
  console.log(`  unchanged poll: ${line(same)}`);
  console.log(`  after 1,000 new entries: ${line(grown)}`);
}

const sizes = process.argv.slice(2).map(Number);
for (const n of sizes.length > 0 ? sizes : [10_000, 1_000_000, 10_000_000]) await measure(n);
