import type { Change, Kind, StoreSession, Stored } from '../../store/port';

/**
 * An object kind's automatic transitions (docs/architecture.md §Automatic transitions): given the stored object and the injected "now",
 * the changes to commit for everything that is due — the object itself (with its new `next_check`) and any
 * object the transition touches. An empty list means nothing was due. Updates must carry the revisions read,
 * so a check that runs twice or late commits nothing the second time.
 */
export type CheckRunner = (session: StoreSession, stored: Stored, now: Date) => Promise<Change[]>;

export type CheckRegistry = Partial<Record<Kind, CheckRunner>>;
