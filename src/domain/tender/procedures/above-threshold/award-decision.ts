import { apiError } from '../../../../http/errors';
import type { AwardRule } from '../../procedure';

const NOT_FALSE = "Can't update award to unsuccessful status when qualified/eligible isn't set to False";

/**
 * HEAD's `Award.validate_qualified` and `open/…/models/award.py::validate_eligible`, model errors (a list on the
 * member): `active` needs `qualified` and `eligible`; `unsuccessful` needs both given and not both true
 * (recordings `activate-non-qualified-award.http`, `unsuccessful-qualified-award.http`).
 */
export const qualifiedAndEligibleDecide: AwardRule = (award) => {
  const { status, qualified, eligible } = award;
  if (status === 'active' && !qualified) {
    throw apiError(422, ["Can't update award to active status with not qualified"], { name: 'qualified' });
  }
  if (status === 'unsuccessful' && (qualified === undefined || eligible === undefined || (qualified && eligible))) {
    throw apiError(422, [NOT_FALSE], { name: 'qualified' });
  }
  if (status === 'active' && !eligible)
    throw apiError(422, ["Can't update award to active status with not eligible"], { name: 'eligible' });
};
