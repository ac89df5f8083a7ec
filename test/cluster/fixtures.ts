import { join } from 'node:path';
import { startCluster, type Cluster, type ClusterOptions } from '../../cluster/launcher';

/** Heartbeats fast enough that a killed node is gone within a second. */
export const HEARTBEAT_TTL_MS = 1000;

/** N API node processes from the TypeScript sources (no build needed) and a redis-server, all on loopback. */
export function startTestCluster(options: Partial<ClusterOptions> = {}): Promise<Cluster> {
  return startCluster({
    nodes: 3,
    worker: false,
    command: [process.execPath, '--import=tsx', join(__dirname, '../../src/main.ts')],
    ...options,
    env: { LOG_LEVEL: 'silent', HEARTBEAT_INTERVAL_MS: '200', HEARTBEAT_TTL_MS: String(HEARTBEAT_TTL_MS), ...options.env },
  });
}
