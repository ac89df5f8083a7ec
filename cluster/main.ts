import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCluster } from './launcher';
import { parseCli } from '../scripts/cli';

/** `npm run cluster -- --nodes 3 [--base-port 8081]`: a local cluster until Ctrl-C. REDIS_URL and STORE_URL are honoured. */
async function main() {
  const { values } = parseCli(
    `usage: npm run cluster -- [--nodes N] [--no-worker] [--no-auction] [--log-dir DIR] [--base-port PORT]

A local cluster of N API nodes, a worker, the auction module and Redis until Ctrl-C. REDIS_URL and STORE_URL are honoured.

  --nodes N          API nodes, 1 to 32 (default 3)
  --no-worker        no worker node (next_check jobs stay queued)
  --no-auction       no auction module (tenders stay in active.auction)
  --log-dir DIR      each node's log file (default ./data/cluster/logs)
  --base-port PORT   fixed ports: api-1 on PORT, api-2 on PORT+1, … (cluster/haproxy.cfg expects 8081)
  -h, --help         this text`,
    {
      nodes: { type: 'string', default: '3' },
      'no-worker': { type: 'boolean', default: false },
      'no-auction': { type: 'boolean', default: false },
      'log-dir': { type: 'string', default: './data/cluster/logs' },
      'base-port': { type: 'string' },
    },
  );
  const nodes = Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 32) throw new Error('--nodes must be an integer from 1 to 32');
  const root = resolve(__dirname, '..').replace(/\/dist$/, '');
  if (!existsSync(join(root, 'dist/src/main.js'))) throw new Error('dist/src/main.js is missing: run `npm run build` first');
  const logDir = resolve(values['log-dir']);
  const cluster = await startCluster({
    nodes,
    worker: !values['no-worker'],
    auction: !values['no-auction'],
    redisUrl: process.env.REDIS_URL || undefined,
    storeUrl: process.env.STORE_URL || `sqlite:${join(root, 'data/cluster/registry.db')}`,
    logDir,
    basePort: values['base-port'] ? Number(values['base-port']) : undefined,
    env: process.env.LOG_LEVEL ? { LOG_LEVEL: process.env.LOG_LEVEL } : {},
    onUnexpectedExit: (id, code, signal) => console.error(`${id} exited (code ${code}, signal ${signal}); see ${logDir}/${id}.log`),
  });
  console.log(`redis   ${cluster.redisUrl}`);
  console.log(`store   ${cluster.storeUrl}`);
  for (const node of cluster.api) console.log(`${node.id.padEnd(10)}${node.url}/api/2.5`);
  if (cluster.worker) console.log(`${cluster.worker.id.padEnd(10)}${cluster.worker.url}/readyz`);
  if (!values['no-auction']) console.log(`auction   plays tenders in active.auction through ${cluster.api[0].url}`);
  console.log(`logs    ${logDir}`);
  console.log(`check   npm run consistency -- --targets ${cluster.api.map((n) => n.url).join(',')}`);
  console.log('Ctrl-C stops them all.');
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping…');
    cluster.stop().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
