import type { FrameworkProcedure } from './framework-procedure';
import { createFrameworkSchema, frameworkConfigSchema, patchActiveFrameworkSchema, patchDraftFrameworkSchema } from '../framework.schema';
import {
  hasItemsMatchesItems,
  itemsRequiredWhenHasItems,
  qualificationPeriodWithinBounds,
  restrictedDerivativesForDefense,
  restrictedDerivativesOnlyForDefense,
} from '../framework.rules';

/** `dynamicPurchasingSystem` (docs/frameworks.md §Framework creation, §Framework status machine, §Framework periods). */
export const dynamicPurchasingSystem: FrameworkProcedure = {
  type: 'dynamicPurchasingSystem',
  accreditation: { create: ['1', '3', '5'] },
  schemas: {
    create: createFrameworkSchema,
    patchDraft: patchDraftFrameworkSchema,
    patchActive: patchActiveFrameworkSchema,
    config: frameworkConfigSchema,
  },
  rules: {
    create: [restrictedDerivativesForDefense, restrictedDerivativesOnlyForDefense, hasItemsMatchesItems],
    patch: [restrictedDerivativesOnlyForDefense],
    activate: [qualificationPeriodWithinBounds, itemsRequiredWhenHasItems],
  },
  /** `DPSFrameworkState.min_submissions_number`: fewer at the check date and the framework is unsuccessful. */
  minSubmissions: 3,
};
