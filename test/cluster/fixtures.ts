import { join } from 'node:path';
import { startCluster, type Cluster, type ClusterOptions } from '../../cluster/launcher';
import { freshMongoDatabase } from '../fixtures/server';

/** Heartbeats fast enough that a killed node is gone within a second. */
export const HEARTBEAT_TTL_MS = 1000;

/** The engine the cluster tests run on: MongoDB (a fresh database per cluster) when MONGODB_URL is set, else SQLite. */
export const ENGINE = process.env.MONGODB_URL ? 'mongodb' : 'sqlite';

/**
 * N API node processes from the TypeScript sources (no build needed) and a redis-server, all on loopback,
 * sharing a temporary SQLite file or, with MONGODB_URL, a fresh database on that server.
 */
export function startTestCluster(options: Partial<ClusterOptions> = {}): Promise<Cluster> {
  return startCluster({
    nodes: 3,
    worker: false,
    command: [process.execPath, '--import=tsx', join(__dirname, '../../src/main.ts')],
    storeUrl: process.env.MONGODB_URL ? freshMongoDatabase(process.env.MONGODB_URL) : undefined,
    ...options,
    env: { LOG_LEVEL: 'silent', HEARTBEAT_INTERVAL_MS: '200', HEARTBEAT_TTL_MS: String(HEARTBEAT_TTL_MS), ...options.env },
  });
}
