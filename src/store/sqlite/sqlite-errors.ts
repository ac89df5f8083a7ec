import { StoreUnavailable } from '../port';

/** Runs one SQLite call, turning a lock another process holds past busy_timeout into StoreUnavailable (503). */
export const guard = <T>(fn: () => T): T => {
  try {
    return fn();
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new StoreUnavailable('the store is busy');
    throw err;
  }
};
