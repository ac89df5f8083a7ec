import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Clock } from '../time/clock';
import { soloMembership, type Membership } from './membership';

/**
 * Redis membership for nodes that issue cookies in cluster mode; otherwise the node is the only member (and ioredis
 * is not loaded).
 */
export async function openMembership(
  config: Pick<Config, 'nodeId' | 'role' | 'redisUrl' | 'heartbeatIntervalMs' | 'heartbeatTtlMs'>,
  clock: Clock,
  logger: Logger,
): Promise<Membership> {
  if (!config.redisUrl || config.role === 'worker') return soloMembership(config.nodeId);
  const { redisMembership } = await import('./redis-membership');
  return redisMembership({
    redisUrl: config.redisUrl,
    selfId: config.nodeId,
    intervalMs: config.heartbeatIntervalMs,
    ttlMs: config.heartbeatTtlMs,
    clock,
    logger,
  });
}
