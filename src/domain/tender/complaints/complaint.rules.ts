import { apiError } from '../../../http/errors';
import { itemsOf } from '../../core/items';
import { isIn, type ComplaintHost, type TenderProcedure } from '../procedure';
import type { Award, Cancellation, Complaint, Lot, Tender, TenderConfig } from '../tender.types';
import type { ObjectionRequest } from './complaint.schema';

/**
 * The reference's complaint rules (`tender/core/procedure/state/complaint.py`, `award_complaint.py`,
 * `cancellation_complaint.py`, 1.0.274; docs/tenders.md §Complaints), as the tenders of its 2020 rules have them:
 * every tender here is one.
 */

/** What a complaint is made on: the tender, or its award or cancellation the path names. */
export interface ComplaintPlace {
  host: ComplaintHost;
  award?: Award;
  cancellation?: Cancellation;
}

const CONFIG_KEY: Record<ComplaintHost, keyof TenderConfig> = {
  tender: 'hasTenderComplaints',
  award: 'hasAwardComplaints',
  cancellation: 'hasCancellationComplaints',
};

/** `validate_complaint_config`. */
export function complaintsAllowed(config: TenderConfig, host: ComplaintHost): void {
  if (config[CONFIG_KEY[host]] !== true) throw apiError(403, "Can't add complaint as it is forbidden by configuration");
  if (config.restricted === true) throw apiError(403, "Can't add complaint for restricted tender");
}

/**
 * The tender statuses a complaint of `host` is made and changed in (`create_allowed_tender_statuses`): the
 * procedure's `windows.complaints` where it names them, else the phases of the reference's open procedures —
 * tender complaints while tendering, award complaints while awards are decided; cancellation complaints in any.
 */
export function inComplaintWindow(procedure: TenderProcedure, host: ComplaintHost, status: string): boolean {
  const named = procedure.windows.complaints?.[host];
  if (named) return named.includes(status as never);
  if (host === 'tender') return isIn(procedure, 'tendering', status);
  if (host === 'award') return isIn(procedure, 'qualification', status) || isIn(procedure, 'awarded', status);
  return true;
}

/** `validate_create_allowed_tender_status` / `validate_update_allowed_tender_status`. */
export function tenderStatusAllows(procedure: TenderProcedure, host: ComplaintHost, tender: Tender, operation: 'add' | 'update'): void {
  if (!inComplaintWindow(procedure, host, tender.status)) {
    throw apiError(403, `Can't ${operation} complaint in current (${tender.status}) tender status`);
  }
}

const lotOf = (tender: Tender, id: string | undefined): Lot | undefined =>
  id ? itemsOf(tender, 'lots').find((l) => l.id === id) : undefined;

/** `validate_lot_status` of an award complaint: its award's lot is active. */
export function awardLotActive(tender: Tender, award: Award, operation: 'add' | 'update'): void {
  const lot = lotOf(tender, award.lotID);
  if (lot && lot.status !== 'active') throw apiError(403, `Can ${operation} complaint only in active lot status`);
}

/** The tender's (`validate_tender_in_complaint_period`) or the award's or the cancellation's complaint period. */
export function inComplaintPeriod(tender: Tender, place: ComplaintPlace, now: Date): void {
  const at = now.getTime();
  if (place.award) {
    const { status, complaintPeriod: p } = place.award;
    const open = ['active', 'unsuccessful'].includes(status) && p?.startDate && p.endDate;
    if (!open || at < Date.parse(p.startDate!) || at >= Date.parse(p.endDate!)) {
      throw apiError(403, 'Can add complaint only in complaintPeriod');
    }
    return;
  }
  if (place.cancellation) {
    const { status, complaintPeriod: p } = place.cancellation;
    if (status !== 'pending') throw apiError(422, 'Complaint can be add only in pending status of cancellation');
    if (!p?.startDate || !p.endDate || at < Date.parse(p.startDate) || at > Date.parse(p.endDate)) {
      throw apiError(422, "Complaint can't be add after finish of complaint period");
    }
    return;
  }
  const end = tender.complaintPeriod?.endDate;
  if (end && at > Date.parse(end)) throw apiError(403, 'Can submit complaint not later than complaintPeriod end date');
}

/** `validate_add_complaint_with_tender_cancellation_in_pending` and `…_lot_cancellation_in_pending`. */
export function noPendingCancellation(tender: Tender, relatedLot: string | undefined): void {
  const pending = itemsOf(tender, 'cancellations').filter((c) => c.status === 'pending');
  if (pending.some((c) => !c.relatedLot)) throw apiError(403, "Can't add complaint if tender have cancellation in pending status");
  if (relatedLot && pending.some((c) => c.relatedLot === relatedLot)) {
    throw apiError(403, "Can't add complaint with 'pending' lot cancellation");
  }
}

/** `validate_submission_allowed` (2020 rules): an award complaint is made on a decided award. */
export function awardDecided(award: Award): void {
  if (!['active', 'unsuccessful'].includes(award.status)) {
    throw apiError(403, 'Complaint submission is allowed only after award activation or unsuccessful award.');
  }
}

/** `validate_complaint_bidder_for_unsuccessful_award`. */
export function ownBidOfUnsuccessfulAward(award: Award, bidId: string | undefined): void {
  if (award.status === 'unsuccessful' && award.bid_id !== bidId) {
    throw apiError(422, 'Can add complaint only on unsuccessful award of your bid', { name: 'bid_id' });
  }
}

/** The model's `validate_relatedLot`. */
export function relatedLotOfTender(tender: Tender, relatedLot: string | undefined): void {
  if (relatedLot && !lotOf(tender, relatedLot)) throw apiError(422, ['relatedLot should be one of lots'], { name: 'relatedLot' });
}

/**
 * The classification ids of each scheme (standards `AMCU/*.json` at 1.0.274). The criteria schemes (`article_16`,
 * `article_17`, `other`) take the standards' criteria ids, which all start `CRITERION.` (docs/tenders.md §Complaints).
 */
const CLASSIFICATIONS: Record<string, (id: string) => boolean> = {
  violation_amcu: (id) =>
    [
      'corruptionDescription',
      'corruptionContracting',
      'corruptionProcurementMethodType',
      'notComplyDecisionACU',
      'cancelled',
      'expectedValue',
      'confidentialInformation',
      'unreliableInformation',
      'formalErrors',
      'other',
      'notProvide24hours',
      'illegalProvide24hours',
    ].includes(id),
  amcu: (id) =>
    [
      'selectionCriteria',
      'technicalSpecification',
      'guarantee',
      'contractTerms',
      'non-priceCriteria',
      'refusalReasons',
      'otherTerms',
      'procurementMethodType',
      'cancellation',
      'nonComplyDecision',
      'otherActions',
      'winnerDocuments',
    ].includes(id),
  amcu_24: (id) =>
    [
      'selectionCriteria',
      'technicalSpecification',
      'guarantee',
      'contractTerms',
      'nonPriceCriteria',
      'exclusionGrounds',
      'otherCriteria',
      'cancellation',
      'appealDecisionViolation',
      'otherViolations',
    ].includes(id),
  article_16: (id) => id.startsWith('CRITERION.'),
  article_17: (id) => id.startsWith('CRITERION.'),
  other: (id) => id.startsWith('CRITERION.'),
};

/** A model error inside one objection, in the reference's nested form (`{objections: [{member: [...]}]}`). */
const objectionError = (index: number, error: Record<string, unknown>) => {
  const description: Record<string, unknown>[] = [];
  description[index] = error;
  return apiError(
    422,
    Array.from(description, (e) => e ?? {}),
    { name: 'objections' },
  );
};

/**
 * The objection models' own checks (`Classification.validate_id`, `Evidence.validate_relatedDocument`), then
 * `validate_objections`: a sequence number, at most one argument.
 */
export function objectionsValid(objections: ObjectionRequest[] | undefined, documentIds: string[]): void {
  (objections ?? []).forEach((o, i) => {
    const { scheme, id } = o.classification;
    if (!CLASSIFICATIONS[scheme](id)) throw objectionError(i, { classification: { id: [`Value must be one of ${scheme} reasons`] } });
    o.arguments.forEach((a, j) => {
      (a.evidences ?? []).forEach((e, k) => {
        if (!documentIds.includes(e.relatedDocument)) {
          const evidences: unknown[] = [];
          evidences[k] = { relatedDocument: ['relatedDocument should be one of complaint documents'] };
          const args: unknown[] = [];
          args[j] = { evidences: Array.from(evidences, (x) => x ?? {}) };
          throw objectionError(i, { arguments: Array.from(args, (x) => x ?? {}) });
        }
      });
    });
  });
  for (const o of objections ?? []) {
    if (o.sequenceNumber === undefined) throw apiError(422, 'sequenceNumber field is required', { name: 'objections' });
    if (o.arguments.length > 1) throw apiError(422, "Can't add more than 1 argument for objection");
  }
}

const relatedItemError = (text: string) => apiError(422, text, { name: 'objections.relatedItem' });

/** `validate_objection_related_item` of a draft, with the host's own (`TenderComplaintState`, `CancellationComplaintState`). */
export function objectionsRelate(
  tender: Tender,
  place: ComplaintPlace,
  complaint: Pick<Complaint, 'relatedLot' | 'status'>,
  objections: ObjectionRequest[] | undefined,
): void {
  if (complaint.status !== 'draft' || !objections) return;
  for (const { relatesTo, relatedItem } of objections) {
    if (relatesTo === 'tender') {
      if (relatedItem !== tender.id) throw relatedItemError('Invalid tender id');
    } else {
      const list = { lot: 'lots', award: 'awards', cancellation: 'cancellations', qualification: 'qualifications' }[relatesTo];
      const item = ((tender as unknown as Record<string, { id: string; status?: string }[] | undefined>)[list] ?? []).find(
        (x) => x.id === relatedItem,
      );
      if (!item) throw relatedItemError(`Invalid ${relatesTo} id`);
      if (relatesTo === 'award' && !['active', 'unsuccessful'].includes(item.status ?? '')) {
        throw relatedItemError(`Relate objection to ${relatesTo} in ${item.status} is forbidden`);
      }
    }
  }
  if (place.host === 'tender') {
    for (const { relatesTo, relatedItem } of objections) {
      if (relatesTo === 'lot' && (!complaint.relatedLot || relatedItem !== complaint.relatedLot)) {
        throw relatedItemError("Complaint's objection must relate to the same lot id as mentioned in complaint's relatedLot");
      }
      if (relatesTo !== 'lot' && complaint.relatedLot) {
        throw relatedItemError(`Complaint's objection must not relate to ${relatesTo} if relatedLot mentioned`);
      }
    }
  }
  if (place.cancellation) {
    for (const { relatedItem } of objections) {
      if (relatedItem.split('/').at(-1) !== place.cancellation.id) {
        throw apiError(422, "Complaint's objection must relate to the same cancellation id as complaint relates to");
      }
    }
  }
}

/** `COMPLAINT_AMOUNT_RATE` and bounds while tendering, `COMPLAINT_ENHANCED_*` after (tender/core/constants.py). */
const FEES = {
  tendering: { rate: 0.3 / 100, min: 2000, max: 85000 },
  later: { rate: 0.6 / 100, min: 3000, max: 170000 },
};

/**
 * `get_complaint_amount` then `round_up_to_ten`: a share of the complaint's lot value (or the tender's), within
 * bounds, in UAH. The reference converts other currencies at the National Bank's rate of the day, which this node
 * has no source for: it refuses them with the reference's text for a currency the bank does not list.
 */
export function complaintFee(
  procedure: TenderProcedure,
  tender: Tender,
  relatedLot: string | undefined,
): { amount: number; currency: 'UAH' } {
  const value = lotOf(tender, relatedLot)?.value ?? tender.value;
  if (value.currency !== 'UAH') {
    throw apiError(422, `Couldn't find currency ${value.currency} on bank.gov.ua`, { name: 'data' });
  }
  const { rate, min, max } = isIn(procedure, 'tendering', tender.status) ? FEES.tendering : FEES.later;
  const amount = Math.min(Math.max(value.amount * rate, min), max);
  return { amount: Math.ceil(amount / 10) * 10, currency: 'UAH' };
}
