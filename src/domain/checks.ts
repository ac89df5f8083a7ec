import type { CheckRegistry } from './core/checks';

/** Every kind's automatic transitions, in one table: the worker, the timer and the chronograph call these. */
export const checks: CheckRegistry = {};
