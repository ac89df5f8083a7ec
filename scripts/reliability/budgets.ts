import type { ClusterStormOptions } from './cluster-storm';

/** Bounded counts of every scenario: `ci` runs inside the tap suite (≤ 60 s per engine), `full` in `npm run reliability`. */
export interface Budget {
  storm: ClusterStormOptions;
  /** fast-check runs per fuzzed endpoint. */
  fuzzRunsPerEndpoint: number;
  /** Generated multipart bodies per document upload route. */
  multipartCasesPerRoute: number;
  /** RESTRICTED_MODE variants the canaries are read under. */
  canaryModes: ('hidden' | 'forbidden')[];
}

/**
 * The CI storm on MongoDB (SecantusDB) kills a node as the SQLite one does. A single-object commit there is one
 * write with no shared document (docs/mongodb.md §Feed ordering on MongoDB), so a node killed mid-commit holds
 * nothing that other writers wait for.
 */
export const CI_MONGO_STORM: ClusterStormOptions = { nodes: 3, objects: 25, writersPerObject: 4, writesPerWriter: 3, killNode: true };

export const BUDGETS: Record<'ci' | 'full', Budget> = {
  ci: {
    storm: { nodes: 3, objects: 25, writersPerObject: 4, writesPerWriter: 3, killNode: true },
    fuzzRunsPerEndpoint: 10,
    multipartCasesPerRoute: 100,
    canaryModes: ['hidden'],
  },
  full: {
    storm: { nodes: 3, objects: 75, writersPerObject: 4, writesPerWriter: 6, killNode: true },
    fuzzRunsPerEndpoint: 300,
    multipartCasesPerRoute: 1000,
    canaryModes: ['hidden', 'forbidden'],
  },
};
