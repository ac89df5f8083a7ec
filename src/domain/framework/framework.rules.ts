import { apiError } from '../../http/errors';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import { dateMathOf } from '../../time/acceleration';
import { qualificationPeriodBounds } from '../../time/framework-periods';
import type { FrameworkRule } from './procedures/framework-procedure';

/** DPS: `restrictedDerivatives` may be true only for a defense procuring entity (docs/frameworks.md §Defense frameworks). */
export const restrictedDerivativesOnlyForDefense: FrameworkRule = (after) => {
  if (after.config?.restrictedDerivatives === true && after.data.procuringEntity?.kind !== 'defense') {
    throw apiError(422, ['restrictedDerivatives must be false for non-defense procuring entity'], {
      name: 'config.restrictedDerivatives',
    });
  }
};

/**
 * An explicit `restrictedDerivatives: false` for a defense procuring entity is refused, as the spec-era reference
 * refused it (docs/frameworks.md §Defense frameworks); omitted, the save sets it true.
 */
export const restrictedDerivativesForDefense: FrameworkRule = (after) => {
  if (after.config?.restrictedDerivatives === false && after.data.procuringEntity?.kind === 'defense') {
    throw apiError(422, ['restrictedDerivatives must be true for defense procuring entity'], {
      name: 'config.restrictedDerivatives',
    });
  }
};

export const hasItemsMatchesItems: FrameworkRule = (after) => {
  if (after.config?.hasItems === false && after.data.items?.length) {
    throw apiError(422, 'Items are not allowed for framework with hasItems set to false', { name: 'items' });
  }
};

export const itemsRequiredWhenHasItems: FrameworkRule = (after) => {
  if (after.config?.hasItems === true && !after.data.items?.length) {
    throw apiError(422, 'Items are required for framework with hasItems set to true', { name: 'items' });
  }
};

/**
 * On activation: 365 to 1461 full calendar days from the qualification period's start
 * (docs/frameworks.md §Qualification-period bounds), 403.
 */
export const qualificationPeriodWithinBounds: FrameworkRule = (after) => {
  const { startDate, endDate } = after.data.qualificationPeriod;
  const bounds = qualificationPeriodBounds(parseIsoDate(startDate!)!, dateMathOf(after.data));
  const end = parseIsoDate(endDate)!.getTime();
  if (end < bounds.earliest.getTime()) {
    throw apiError(403, "qualificationPeriod couldn't be less than 365 full calendar days long");
  }
  if (end > bounds.latest.getTime()) {
    throw apiError(403, "qualificationPeriod couldn't be more than 1461 full calendar days long");
  }
};

/** Python `str(datetime)` in Kyiv, as the submission period messages print dates (docs/frameworks.md §Submissions). */
export const pythonDateText = (iso: string) => formatKyiv(parseIsoDate(iso)!).replace('T', ' ');
