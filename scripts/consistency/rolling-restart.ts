/**
 * A rolling restart of a local cluster under the consistency checker (docs/operations.md §Rollouts): each API node in
 * turn gets SIGTERM, drains, and is replaced by a node with a new NODE_ID on its port, as a Deployment's rolling
 * update replaces a pod by one with a new name. Prints the checker's summary and the 412s the replacements cost.
 *
 *   npm run build && npx tsx scripts/consistency/rolling-restart.ts [--nodes 3] [--clients 16] [--seconds 40]
 *
 * On STORE_URL when set, else a temporary SQLite file. Exits 1 on a session-consistency violation.
 */
import { startCluster } from '../../cluster/launcher';
import { parseCli } from '../cli';
import { runConsistencyCheck } from './check-run';
import { formatSummary, passed } from './summary';

const USAGE = `usage: npx tsx scripts/consistency/rolling-restart.ts [--nodes N] [--clients N] [--seconds S]

  --nodes N     API nodes of the local cluster, each replaced once (default 3)
  --clients N   simulated clients (default 16)
  --seconds S   how long the clients run; the restarts start after a tenth of it (default 40)
  -h, --help    this text`;

async function main(): Promise<number> {
  const { values } = parseCli(USAGE, {
    nodes: { type: 'string', default: '3' },
    clients: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '40' },
  });
  const [nodes, clients, seconds] = [Number(values.nodes), Number(values.clients), Number(values.seconds)];
  const cluster = await startCluster({
    nodes,
    storeUrl: process.env.STORE_URL || undefined,
    env: { HEARTBEAT_INTERVAL_MS: '300', HEARTBEAT_TTL_MS: '1500' },
  });
  try {
    const checked = runConsistencyCheck({
      targets: cluster.api.map((n) => n.url),
      clients,
      seconds,
      progress: (line) => console.error(line),
    });
    await new Promise((resolve) => setTimeout(resolve, seconds * 100));
    const drains: string[] = [];
    for (const node of cluster.api) {
      const started = Date.now();
      await cluster.kill(node.id, 'SIGTERM');
      const drainedMs = Date.now() - started;
      await cluster.restart(node.id, { NODE_ID: `${node.id}-replaced` });
      drains.push(`${node.id} drained in ${drainedMs} ms, replacement ready ${Date.now() - started - drainedMs} ms later`);
      console.error(drains[drains.length - 1]);
    }
    const summary = await checked;
    console.log(formatSummary(summary));
    console.log(
      `rolling restart: ${nodes} API nodes replaced one by one; ${summary.preconditionFailed} 412s for ${clients} clients ` +
        `(${(summary.preconditionFailed / clients).toFixed(2)} per client), ${summary.unreachable} attempts moved off a stopped node`,
    );
    for (const line of drains) console.log(`  ${line}`);
    return passed(summary) ? 0 : 1;
  } finally {
    await cluster.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
