import type { AwardPolicy, TenderProcedure } from '../../procedure';
import { procurementMethodIs } from '../../tender.rules';
import { qualifiedDecides } from '../../awards/award.rules';
import { limitedConfig, limitedWindows, tenderDefaults } from '../shared-rules';
import type { TenderContent } from '../../tender.types';
import { causeDetailsFromList, causeRequired } from '../cause-details';
import { REPORTING_CAUSES } from './causes';
import { createReporting, patchReporting, patchReportingAward, postReportingAward } from './reporting.schema';

/** `VALUE_AMOUNT_THRESHOLD`: from these amounts on, by category, a reporting tender names its cause. */
const THRESHOLD = { goods: 100000, services: 200000, works: 1500000 };

/** `reporting_cause_is_required`: a procuring entity other than `other`, no rationale, a value at the threshold. */
function causeIsRequired(t: TenderContent): boolean {
  const category = t.mainProcurementCategory;
  return t.procuringEntity.kind !== 'other' && !t.procurementMethodRationale && !!category && t.value.amount >= THRESHOLD[category];
}

/**
 * Awards named by the owner (`ReportingAwardResource`), decided with `qualified`, without a stand-still
 * (`award_has_period` false): the contract is made on activation and may be signed at once (docs/tenders.md §reporting).
 */
const AWARDS: AwardPolicy = {
  create: postReportingAward,
  schema: patchReportingAward,
  rules: [qualifiedDecides],
  standStill: null,
  refusalStandStill: false,
  skipStandStill: true,
};

/**
 * reporting (the reference's `limited` package): a contract reported without competition. No periods, bids,
 * questions or auction: the owner activates the draft, names the supplier in an award, activates it, and the
 * signed contract completes the tender (docs/tenders.md §reporting).
 */
export const reporting: TenderProcedure = {
  type: 'reporting',
  procurementMethod: 'limited',
  // `ReportingTenderDetailsState.tender_create_accreditations`.
  accreditation: { create: ['1', '3', '5'] },
  phases: [
    { status: 'draft', ends: { by: "the owner's activation" } },
    { status: 'active', ends: { by: "the awarded supplier's contract signed; the owner's cancellation" } },
    { status: 'complete' },
    { status: 'cancelled' },
  ],
  windows: {
    ...limitedWindows,
    complaints: null,
  },
  editableStatuses: ['draft', 'active'],
  // `ReportingCancellationStateMixing`: belowThreshold's checks, the release's reasons with forceMajeure.
  cancellations: { reasonTypes: ['noDemand', 'unFixable', 'forceMajeure', 'expensesCut'], rules: [] },
  complaintRoutes: { read: [], post: [] },
  // Standards `TenderConfig/reporting.json`: every member fixed.
  config: limitedConfig(false),
  schemas: { create: createReporting, patch: patchReporting },
  rules: {
    ...tenderDefaults.rules,
    save: [
      ...tenderDefaults.rules.save,
      procurementMethodIs('limited'),
      causeRequired(causeIsRequired),
      causeDetailsFromList(REPORTING_CAUSES),
    ],
    // `should_validate_related_lot_in_items` False: no lots, so no item names one.
    activate: [],
  },
  bids: null,
  awards: AWARDS,
  periods: () => undefined,
  activate: () => undefined,
};
