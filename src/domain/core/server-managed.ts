import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../http/errors';

/** An object as a save sees it: its data and its behaviour switches. */
export interface Saved {
  data: Record<string, unknown>;
  config?: Record<string, unknown>;
}

/**
 * A rule every save of a kind obeys, whatever the route (docs/platform.md §Server-managed arrays,
 * docs/frameworks.md §Defense frameworks): it may complete `after` or refuse the save. `writes` names the
 * server-managed arrays this save was made to change (a sub-resource route names its own).
 */
export type SaveRule = (after: Saved, before: Saved | null, writes: readonly string[]) => void;

/**
 * Arrays that only their own routes write (documents, questions, changes…): a save that changes one it was not
 * made for is refused as the reference refuses a member its PATCH model does not have, `422 Rogue field`.
 */
export const serverManaged =
  (arrays: readonly string[]): SaveRule =>
  (after, before, writes) => {
    for (const name of arrays) {
      if (!writes.includes(name) && !isDeepStrictEqual(after.data[name], before?.data[name])) {
        throw apiError(422, 'Rogue field', { name });
      }
    }
  };
