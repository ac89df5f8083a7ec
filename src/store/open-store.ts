import type { Store } from './port';
import { openSqliteStore } from './sqlite/sqlite-store';

/** `sqlite:PATH` (the embedded default) or `mongodb://…` (the cluster engine). */
export async function openStore(
  url: string,
  options: { readPreference?: string; testStaleReadsMs?: number | null } = {},
): Promise<Store> {
  if (url.startsWith('sqlite:')) {
    return openSqliteStore(url.slice('sqlite:'.length), { staleReadsMs: options.testStaleReadsMs ?? undefined });
  }
  if (url.startsWith('mongodb')) {
    const { openMongoStore } = await import('./mongo/mongo-store');
    return openMongoStore(url, options);
  }
  throw new Error(`unsupported STORE_URL: ${url}`);
}
