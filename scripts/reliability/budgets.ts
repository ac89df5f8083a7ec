import type { ClusterStormOptions } from './cluster-storm';

/** Bounded counts of every scenario: `ci` runs inside the tap suite (≤ 60 s per engine), `full` in `npm run reliability`. */
export interface Budget {
  storm: ClusterStormOptions;
  /** fast-check runs per fuzzed endpoint. */
  fuzzRunsPerEndpoint: number;
}

export const BUDGETS: Record<'ci' | 'full', Budget> = {
  ci: {
    storm: { nodes: 3, objects: 25, writersPerObject: 4, writesPerWriter: 3, killNode: true },
    fuzzRunsPerEndpoint: 12,
  },
  full: {
    storm: { nodes: 3, objects: 75, writersPerObject: 4, writesPerWriter: 6, killNode: true },
    fuzzRunsPerEndpoint: 300,
  },
};
