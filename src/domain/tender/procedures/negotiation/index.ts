import { apiError } from '../../../../http/errors';
import type { DayCount } from '../../../../time/acceleration';
import { qualifiedDecides } from '../../awards/award.rules';
import { cancellationOutsideAwardComplaintPeriod } from '../../cancellations/cancellation.rules';
import type { CancellationRule, TenderProcedure, TenderRule } from '../../procedure';
import { procurementMethodIs } from '../../tender.rules';
import { causeDetailsFromList, causeRequired, type CauseEntry } from '../cause-details';
import { limitedConfig, limitedWindows, tenderDefaults } from '../shared-rules';
import { NEGOTIATION_CAUSES, NEGOTIATION_QUICK_CAUSES } from './causes';
import { createNegotiation, patchNegotiation, patchNegotiationAward, postNegotiationAward } from './negotiation.schema';

/** `NegotiationTenderDetailsState.on_patch`: the tender is fixed once an award is named. */
const noChangeAfterAwards: TenderRule = (_t, { before }) => {
  if (before?.awards?.length) throw apiError(403, "Can't update tender when there is at least one award.");
};

/** `validate_absence_complete_lots_on_tender_cancel`: the whole tender is not cancelled once one of its lots is complete. */
const noCompleteLotCancelled: CancellationRule = (cancellation, tender) => {
  if (!cancellation.relatedLot && (tender.lots ?? []).some((l) => l.status === 'complete')) {
    throw apiError(403, "Can't perform cancellation, if there is at least one complete lot");
  }
};

/**
 * negotiation and negotiation.quick (the reference's `limited` package): a contract negotiated with one supplier
 * the owner names, per lot. As reporting, plus lots, a required cause from the type's own list, award complaints,
 * the award's stand-still (`complaintPeriod`, calendar days: standards `TenderConfig/{type}.json`
 * `awardComplainDuration`) that the contract waits for, and cancellation complaints
 * (docs/tenders.md §negotiation and negotiation.quick).
 */
function negotiationOf(type: string, causes: Record<string, CauseEntry>, standStill: DayCount): TenderProcedure {
  return {
    type,
    procurementMethod: 'limited',
    // `NegotiationTenderDetailsState.tender_create_accreditations`.
    accreditation: { create: ['3', '5'] },
    phases: [
      { status: 'draft', ends: { by: "the owner's activation" } },
      { status: 'active', ends: { by: "each lot's contract signed after its award's stand-still; the owner's cancellation" } },
      { status: 'complete' },
      { status: 'unsuccessful' },
      { status: 'cancelled' },
    ],
    windows: {
      ...limitedWindows,
      // `NegotiationAwardComplaintState.create_allowed_tender_statuses` (docs/tenders.md §Complaints).
      complaints: { award: ['active'] },
    },
    editableStatuses: ['draft', 'active'],
    // `NegotiationCancellationStateMixing`: its reasons, the core's complaint-period check and its own lot check.
    cancellations: {
      reasonTypes: ['noObjectiveness', 'unFixable', 'noDemand', 'expensesCut', 'dateViolation'],
      rules: [cancellationOutsideAwardComplaintPeriod, noCompleteLotCancelled],
    },
    // `limited/procedure/views/award_complaint*.py`, `cancellation_complaint*.py`: no tender complaints.
    complaintRoutes: { read: ['award', 'cancellation'], post: ['award', 'cancellation'] },
    // Standards 1.0.274 `TenderConfig/{type}.json`: every member fixed.
    config: limitedConfig(true),
    schemas: { create: createNegotiation, patch: patchNegotiation },
    rules: {
      ...tenderDefaults.rules,
      save: [
        ...tenderDefaults.rules.save,
        procurementMethodIs('limited'),
        causeRequired(() => true),
        causeDetailsFromList(causes),
        noChangeAfterAwards,
      ],
    },
    bids: null,
    awards: {
      create: postNegotiationAward,
      schema: patchNegotiationAward,
      rules: [qualifiedDecides],
      standStill,
      // `NegotiationAwardState.award_status_up_from_pending_to_unsuccessful`: a refusal has no stand-still.
      refusalStandStill: false,
      skipStandStill: false,
    },
    periods: () => undefined,
    activate: () => undefined,
  };
}

export const negotiation = negotiationOf('negotiation', NEGOTIATION_CAUSES, { days: 5, working: false });
export const negotiationQuick = negotiationOf('negotiation.quick', NEGOTIATION_QUICK_CAUSES, { days: 3, working: false });
