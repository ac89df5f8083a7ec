import type { TenderRule } from '../procedure';
import {
  cpvClassOfItemsIdentical,
  featuresRelateToExisting,
  itemsHaveRelatedLot,
  itemsRelatedLotExists,
  milestonesConsistent,
  minimalStepFitsValue,
  periodsInOrder,
  specialAdditionalClassification,
  submissionMethodOnlyWithAuction,
} from '../tender.rules';

/** Rules every tender procedure runs: on every save, and when activated. */
export const tenderDefaults: { rules: { save: TenderRule[]; activate: TenderRule[] } } = {
  rules: {
    save: [
      periodsInOrder,
      itemsRelatedLotExists,
      cpvClassOfItemsIdentical,
      specialAdditionalClassification,
      featuresRelateToExisting,
      milestonesConsistent,
      submissionMethodOnlyWithAuction,
      minimalStepFitsValue,
    ],
    activate: [itemsHaveRelatedLot],
  },
};
