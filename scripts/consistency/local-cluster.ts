import { startCluster, type Cluster } from '../../cluster/launcher';
import { Clocks } from './clocks';
import type { Nemesis } from './nemesis';
import { Routes } from './partition';
import { startToxiproxy, toxiproxyServer } from './toxiproxy';

/** A cluster started for a check, set up for the nemeses asked for. */
export interface LocalCluster {
  cluster: Cluster;
  /** Where clients send requests: each API node, through its client link when partitions may cut it. */
  targets: string[];
  routes?: Routes;
  clocks?: Clocks;
  /** Nemeses that cannot run on this machine, and why. */
  skipped: string[];
  stop(): Promise<void>;
}

/** The membership TTL of local clusters: how long a stopped node still counts as alive. */
export const LOCAL_TTL_MS = 1500;

/**
 * Starts N API nodes on the store (a temporary SQLite file when absent): behind a Toxiproxy of its own for
 * `partition`, under skewed clocks for `clock` (docs/cluster.md §Nemeses).
 */
export async function startLocalCluster(options: { nodes: number; storeUrl?: string; nemesis?: Nemesis[] }): Promise<LocalCluster> {
  const skipped: string[] = [];
  const wants = (n: Nemesis) => !!options.nemesis?.includes(n);
  const toxiproxy = wants('partition') ? toxiproxyServer() : null;
  if (wants('partition') && !toxiproxy) skipped.push('partition: no toxiproxy-server (TOXIPROXY_SERVER, or on PATH)');
  const library = wants('clock') ? Clocks.library() : null;
  if (wants('clock') && !library) skipped.push('clock: no libfaketime (apt-get install faketime, or LIBFAKETIME)');
  const routes = toxiproxy ? new Routes(await startToxiproxy(toxiproxy)) : undefined;
  const clocks = library ? new Clocks(library) : undefined;
  const release = async () => {
    await routes?.toxiproxy.stop();
    clocks?.remove();
  };
  try {
    const cluster = await startCluster({
      nodes: options.nodes,
      storeUrl: options.storeUrl,
      env: { HEARTBEAT_INTERVAL_MS: '300', HEARTBEAT_TTL_MS: String(LOCAL_TTL_MS) },
      nodeEnv: async (index, shared) => ({ ...clocks?.nodeEnv(index), ...(await routes?.nodeEnv(index, shared)) }),
    });
    const targets = routes ? await routes.clientTargets(cluster).catch(stopping(cluster)) : cluster.api.map((n) => n.url);
    return {
      cluster,
      targets,
      routes,
      clocks,
      skipped,
      async stop() {
        await cluster.stop();
        await release();
      },
    };
  } catch (err) {
    await release();
    throw err;
  }
}

const stopping = (cluster: Cluster) => async (err: unknown) => {
  await cluster.stop();
  throw err;
};
