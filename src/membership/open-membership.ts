import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Clock } from '../time/clock';
import { soloMembership, type Membership } from './membership';
import { redisMembership } from './redis-membership';

/** Redis membership for nodes that issue cookies in cluster mode; otherwise the node is the only member. */
export function openMembership(
  config: Pick<Config, 'nodeId' | 'role' | 'redisUrl' | 'heartbeatIntervalMs' | 'heartbeatTtlMs'>,
  clock: Clock,
  logger: Logger,
): Membership {
  if (!config.redisUrl || config.role === 'worker') return soloMembership(config.nodeId);
  return redisMembership({
    redisUrl: config.redisUrl,
    selfId: config.nodeId,
    intervalMs: config.heartbeatIntervalMs,
    ttlMs: config.heartbeatTtlMs,
    clock,
    logger,
  });
}
