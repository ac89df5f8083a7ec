import type { Kind } from '../store/port';
import { changeBuilders } from './core/objects';
import { serverManaged, type SaveRule } from './core/server-managed';
import { defenseRestrictsDerivatives } from './framework/framework.invariants';

/**
 * The rules every save of each kind obeys, run where every change is built (`insertOf`, `updateOf` below, the only
 * change builders the domain has), so no route can save around them: the server-managed arrays (docs/platform.md §Server-managed arrays) and the defense
 * rule (docs/frameworks.md §Defense frameworks).
 */
const SAVE_RULES: Partial<Record<Kind, SaveRule[]>> = {
  tenders: [serverManaged(['documents', 'questions', 'complaints', 'bids', 'awards', 'contracts', 'cancellations'])],
  frameworks: [defenseRestrictsDerivatives, serverManaged(['documents', 'changes'])],
  submissions: [serverManaged(['documents'])],
  qualifications: [serverManaged(['documents'])],
  contracts: [serverManaged(['documents', 'changes'])],
  plans: [serverManaged(['documents', 'milestones'])],
};

export const { insertOf, updateOf } = changeBuilders((kind) => SAVE_RULES[kind] ?? []);
