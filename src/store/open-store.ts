import type { MongoStoreOptions } from './mongo/mongo-store';
import type { Store } from './port';
import { openSqliteStore } from './sqlite/sqlite-store';

/** `sqlite:PATH` (the embedded default) or `mongodb://…` (the cluster engine). */
export async function openStore(
  url: string,
  options: {
    readPreference?: string;
    testStaleReadsMs?: number | null;
    /** Memory for feed entries kept by their positions (docs/mongodb.md §Feed pages on MongoDB). */
    feedCacheBytes?: number;
    /** The wall clock (epoch ms) feed positions follow (docs/platform.md §Feeds); tests inject theirs. */
    clock?: () => number;
    /** MongoDB: sees each command sent and answered (mongo-store.ts `onCommand`). */
    onCommand?: MongoStoreOptions['onCommand'];
  } = {},
): Promise<Store> {
  if (url.startsWith('sqlite:')) {
    return openSqliteStore(url.slice('sqlite:'.length), {
      staleReadsMs: options.testStaleReadsMs ?? undefined,
      clock: options.clock,
      keptListingsBytes: options.feedCacheBytes,
    });
  }
  if (url.startsWith('mongodb')) {
    const { openMongoStore } = await import('./mongo/mongo-store');
    return openMongoStore(url, {
      readPreference: options.readPreference,
      feedFloors: { clock: options.clock },
      keptListingsBytes: options.feedCacheBytes,
      onCommand: options.onCommand,
    });
  }
  throw new Error(`unsupported STORE_URL: ${url}`);
}
