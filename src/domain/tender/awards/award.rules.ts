import { apiError } from '../../../http/errors';
import type { AwardRule } from '../procedure';

/**
 * The owner's decision on an award, as the reference checks it for each procedure (docs/tenders.md §Awards):
 * `active` needs `qualified` (and, where the procedure has it, `eligible`); `unsuccessful` needs them set and not
 * all true. Texts from the reference's `core/procedure/models/award.py` and `competitiveordering/…/state/award.py`.
 */
const NOT_FALSE = "Can't update award to unsuccessful status when qualified/eligible isn't set to False";

/** `Award.validate_qualified`: 422 on `qualified` (a model error, so its description is a list). */
export const qualifiedDecides: AwardRule = (award) => {
  if (award.status === 'active' && !award.qualified) {
    throw apiError(422, ["Can't update award to active status with not qualified"], { name: 'qualified' });
  }
  if (award.status === 'unsuccessful' && award.qualified !== false) throw apiError(422, [NOT_FALSE], { name: 'qualified' });
};

/** competitiveOrdering: `active` needs `qualified` (as above); `eligible` is `eligibleDecides`'s. */
export const qualifiedToActivate: AwardRule = (award) => {
  if (award.status === 'active' && !award.qualified) {
    throw apiError(422, ["Can't update award to active status with not qualified"], { name: 'qualified' });
  }
};

/**
 * competitiveOrdering `COAwardState.award_on_patch`, 422 operation errors (named `data`). A decision that carries
 * `eligible` gets the spec era's checks (`active` needs it true; `unsuccessful` needs both given and not both true);
 * one without it the reference's current ones (`unsuccessful` needs `qualified: false`), so a body written for either
 * passes (docs/tenders.md §Awards).
 */
export const eligibleDecides: AwardRule = (award) => {
  if (award.eligible === undefined) {
    if (award.status === 'unsuccessful' && award.qualified !== false) throw apiError(422, NOT_FALSE);
    return;
  }
  if (award.status === 'active' && !award.eligible) throw apiError(422, "Can't update award to active status with not eligible");
  if (award.status === 'unsuccessful' && (award.qualified === undefined || (award.qualified && award.eligible))) {
    throw apiError(422, NOT_FALSE);
  }
};
