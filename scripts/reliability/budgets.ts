import type { ClusterStormOptions } from './cluster-storm';

/** Bounded counts of every scenario: `ci` runs inside the tap suite (≤ 60 s per engine), `full` in `npm run reliability`. */
export interface Budget {
  storm: ClusterStormOptions;
  /** fast-check runs per fuzzed endpoint. */
  fuzzRunsPerEndpoint: number;
  /** RESTRICTED_MODE variants the canaries are read under. */
  canaryModes: ('hidden' | 'forbidden')[];
}

/**
 * The CI storm on MongoDB (SecantusDB): every commit is a transaction on one sequence document, and 100
 * writers took 43 s for 2 writes each there (126 conflicts, 35 answers of 503), so CI writes less.
 */
export const CI_MONGO_STORM: ClusterStormOptions = { nodes: 3, objects: 8, writersPerObject: 4, writesPerWriter: 2, killNode: true };

export const BUDGETS: Record<'ci' | 'full', Budget> = {
  ci: {
    storm: { nodes: 3, objects: 25, writersPerObject: 4, writesPerWriter: 3, killNode: true },
    fuzzRunsPerEndpoint: 12,
    canaryModes: ['hidden'],
  },
  full: {
    storm: { nodes: 3, objects: 75, writersPerObject: 4, writesPerWriter: 6, killNode: true },
    fuzzRunsPerEndpoint: 300,
    canaryModes: ['hidden', 'forbidden'],
  },
};
