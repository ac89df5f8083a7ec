import Redis from 'ioredis';
import type { Logger } from 'pino';
import type { Clock } from '../time/clock';
import { liveMembers } from '../metrics';
import type { Membership } from './membership';

export interface RedisMembershipOptions {
  redisUrl: string;
  selfId: string;
  /** How often this node renews its heartbeat. */
  intervalMs: number;
  /** How long a heartbeat counts: a node silent for longer is gone. */
  ttlMs: number;
  clock: Clock;
  logger: Logger;
  /** How long an answer about another node is reused before Redis is asked again. */
  cacheMs?: number;
  keyPrefix?: string;
}

const DEFAULT_PREFIX = 'registry:members:';
/** An unreachable Redis is reported at most this often. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/**
 * Membership announced in Redis (docs/architecture.md §Sessions and causal tokens): each node keeps a key
 * `<prefix>node:<nodeId>` whose value is the
 * heartbeat's deadline (epoch ms, from the injected clock) and whose Redis TTL removes it after a crash. A
 * node is alive while its key exists and its deadline has not passed.
 *
 * Without Redis a node cannot tell who is gone; rather than turning every request into 412 it keeps trusting
 * itself and the nodes it last saw alive, and logs the condition.
 */
export function redisMembership(options: RedisMembershipOptions): Membership {
  const { selfId, intervalMs, ttlMs, clock, logger } = options;
  const prefix = options.keyPrefix ?? DEFAULT_PREFIX;
  const cacheMs = options.cacheMs ?? Math.min(1000, Math.floor(intervalMs / 2));
  const log = logger.child({ component: 'membership' });
  // Fail fast while disconnected: a request must not wait for Redis to come back.
  const redis = new Redis(options.redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  redis.on('error', () => {}); // reported through the failing commands below
  const cache = new Map<string, { alive: boolean; at: number }>();
  const lastSeenAlive = new Set<string>([selfId]);
  let lastOutageLog = 0;
  let timer: NodeJS.Timeout | null = null;

  const outage = (err: unknown, what: string) => {
    const now = Date.now();
    if (now - lastOutageLog < OUTAGE_LOG_INTERVAL_MS) return;
    lastOutageLog = now;
    log.warn(
      { err, lastSeenAlive: [...lastSeenAlive] },
      `membership: Redis unreachable (${what}); trusting this node and the nodes last seen alive`,
    );
  };

  const remember = (nodeId: string, alive: boolean) => {
    cache.set(nodeId, { alive, at: clock.now().getTime() });
    if (alive) lastSeenAlive.add(nodeId);
    else lastSeenAlive.delete(nodeId);
  };

  const beat = async () => {
    const now = clock.now().getTime();
    try {
      await redis
        .multi()
        .set(`${prefix}node:${selfId}`, String(now + ttlMs), 'PX', ttlMs)
        .sadd(`${prefix}all`, selfId)
        .exec();
      await refreshView(now);
    } catch (err) {
      outage(err, 'heartbeat');
    }
  };

  // The whole membership, so a Redis outage later finds every live node already remembered. The set only
  // names candidates (no KEYS scan over a Redis shared with the job queue); expired ones are dropped from it.
  const refreshView = async (now: number) => {
    const ids = await redis.smembers(`${prefix}all`);
    const deadlines = ids.length ? await redis.mget(ids.map((id) => `${prefix}node:${id}`)) : [];
    const gone = ids.filter((id, i) => {
      remember(id, Number(deadlines[i]) > now);
      return deadlines[i] === null;
    });
    if (gone.length) await redis.srem(`${prefix}all`, ...gone);
    liveMembers.set(ids.filter((_, i) => Number(deadlines[i]) > now).length);
  };

  return {
    selfId,
    async isAlive(nodeId) {
      if (nodeId === selfId) return true;
      const now = clock.now().getTime();
      const cached = cache.get(nodeId);
      if (cached && now - cached.at < cacheMs) return cached.alive;
      try {
        const deadline = await redis.get(`${prefix}node:${nodeId}`);
        const alive = deadline !== null && Number(deadline) > now;
        remember(nodeId, alive);
        return alive;
      } catch (err) {
        outage(err, 'lookup');
        return lastSeenAlive.has(nodeId);
      }
    },
    async start() {
      await redis.connect().catch((err) => outage(err, 'connect'));
      await beat();
      timer = setInterval(() => void beat(), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      // Leaving at once: cookies naming this node get 412 now, not after the TTL.
      await redis
        .multi()
        .del(`${prefix}node:${selfId}`)
        .srem(`${prefix}all`, selfId)
        .exec()
        .catch(() => undefined);
      redis.disconnect();
    },
  };
}
