import type { TenderProcedure } from '../procedure';
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

/** Rules every tender procedure runs: on every save, when activated, on every question asked and document added. */
export const tenderDefaults: { rules: TenderProcedure['rules'] } = {
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
    question: [],
    document: [],
  },
};
