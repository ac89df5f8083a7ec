import type { CheckRegistry } from './core/checks';
import { agreementCheck } from './agreement/agreement-check';
import { frameworkCheck } from './framework/framework-check';
import { tenderCheck } from './tender/tender.checks';

/** Every kind's automatic transitions, in one table: the worker, the timer and the chronograph call these. */
export const checks: CheckRegistry = {
  frameworks: frameworkCheck,
  agreements: agreementCheck,
  tenders: tenderCheck,
};
