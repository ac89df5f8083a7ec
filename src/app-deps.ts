import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Account } from './http/auth';
import type { LiveFeeds } from './http/live-feeds';
import type { Membership } from './membership/membership';
import type { Store } from './store/port';
import type { Clock } from './time/clock';

/** What the app is built from; tests build it with their own store, clock and accounts. */
export interface AppDeps {
  config: Config;
  store: Store;
  membership: Membership;
  accounts: Map<string, Account>;
  clock: Clock;
  logger: Logger;
  readinessChecks?: (() => Promise<void>)[];
  /** The node's live feed streams, which it ends when it stops; the app makes its own without. */
  liveFeeds?: LiveFeeds;
  /** Where per-key request counts are shared between nodes (RATE_LIMIT_PER_MINUTE); per process without. */
  rateLimitRedis?: Redis | null;
}

/** What the route table is built from: a node's settings and keys, no store (the OpenAPI document is printed without one). */
export type RouteDeps = Pick<AppDeps, 'config' | 'accounts'>;
