import { apiError } from '../../../http/errors';
import type { StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { dateMathOf } from '../../../time/acceleration';
import { calculateTenderFullDate } from '../../../time/periods';
import { holds } from '../complaints/complaint-holds';
import { newId } from '../../core/ids';
import { itemById, itemsOf } from '../../core/items';
import type { DocumentHolder } from '../../documents';
import { validated } from '../../core/validation';
import type { TenderProcedure } from '../procedure';
import { procedureOfStored } from '../tender.lifecycle';
import { cancelledContracts } from '../awards/award.lifecycle';
import { cancel } from './cancel';
import { patchCancellationSchema, postCancellationSchema, type CancellationPatch, type CancellationRequest } from './cancellation.schema';
import {
  cancellationInAllowedTenderStatus,
  cancellationOfActiveLot,
  cancellationStatusDraftPending,
  possibleReasonType,
} from './cancellation.rules';
import { tenderChange, tenderOf, type StoredTender } from '../tender-aggregate';
import type { Document } from '../../core/shapes';
import type { Cancellation, Tender } from '../tender.types';

/**
 * Cancellations of a tender or of one lot (docs/tenders.md §Cancellations): the owner makes a `draft`, adds its
 * documents, then sets it `pending` or `active`; with cancellation complaints off (both procedures) either makes it
 * `active` at once and cancels the tender or the lot. Every change is saved with the tender it belongs to.
 */

export const cancellationsOf = (tender: Tender): Cancellation[] => itemsOf(tender, 'cancellations');
export const findCancellation = (tender: Pick<Tender, 'cancellations'>, id: string): Cancellation =>
  itemById(tender, 'cancellations', id, 'cancellation_id');

/** `validate_cancellation_post` / `validate_cancellation_patch`: the shared checks, then the procedure's own. */
function checkCancellation(
  procedure: TenderProcedure,
  tender: Tender,
  stored: Cancellation,
  changed: Cancellation,
  now: Date,
  operation: 'added' | 'updated',
) {
  cancellationInAllowedTenderStatus(procedure, tender);
  cancellationOfActiveLot(tender, stored);
  if (operation === 'updated') cancellationStatusDraftPending(stored);
  possibleReasonType(changed, procedure.cancellations.reasonTypes);
  for (const rule of procedure.cancellations.rules) rule(stored, tender, { now, operation });
}

/** The model's `validate_relatedLot`: a lot of the tender, required when the cancellation says it is of a lot. */
function checkRelatedLot(tender: Tender, request: CancellationRequest): void {
  if (request.relatedLot) {
    if (!itemsOf(tender, 'lots').some((l) => l.id === request.relatedLot)) {
      throw apiError(422, ['relatedLot should be one of lots'], { name: 'relatedLot' });
    }
  } else if (request.cancellationOf === 'lot') {
    throw apiError(422, ['This field is required.'], { name: 'relatedLot' });
  }
}

/** A tender's cancellation, for a route on it: 404 for an unknown one. */
export interface TenderCancellation {
  stored: StoredTender;
  cancellation: Cancellation;
}

/** Saves the tender with its changed cancellation (and what the cancellation did), `next_check` recomputed. */
async function saveCancellations(
  session: StoreSession,
  stored: StoredTender,
  tender: Tender,
  now: Date,
  cancelled: string[] = [],
): Promise<void> {
  const stamp = formatKyiv(now);
  const data = { ...tender, dateModified: stamp };
  // A cancellation writes its own list, and its effects reach the bids and contracts (docs/tenders.md §Cancellations).
  const change = tenderChange(stored, data, { writes: ['cancellations', 'bids', 'contracts'] });
  // The contracting module's copies of the contracts it cancelled change in the same commit.
  await session.commit([change, ...(await cancelledContracts(session, cancelled, now))]);
}

/** `POST /tenders/{id}/cancellations` by the owner: 201 with the new `draft` cancellation. */
export async function addCancellation(
  session: StoreSession,
  stored: StoredTender,
  data: Record<string, unknown>,
  now: Date,
): Promise<Cancellation> {
  // A sent `status` is ignored and `cancellationOf` is the server's, once `relatedLot` is checked against it.
  const { status: _ignored, ...asked } = validated<CancellationRequest>(postCancellationSchema, data);
  const tender = structuredClone(tenderOf(stored.doc));
  checkRelatedLot(tender, asked);
  const { cancellationOf: _serverSet, ...request } = asked;
  const cancellation: Cancellation = {
    ...request,
    id: newId(),
    date: formatKyiv(now),
    cancellationOf: request.relatedLot ? 'lot' : 'tender',
    status: 'draft',
  };
  checkCancellation(procedureOfStored(tender), tender, cancellation, cancellation, now, 'added');
  tender.cancellations = [...cancellationsOf(tender), cancellation];
  await saveCancellations(session, stored, tender, now);
  return cancellation;
}

/** The reason and at least one document, before a cancellation may take effect (`cancellation_status_up`). */
function requireFilled(cancellation: Cancellation, status: string): void {
  if (!cancellation.reason || !cancellation.documents?.length) {
    throw apiError(422, `Fields reason, cancellationOf and documents must be filled for switch cancellation to ${status} status`);
  }
}

/**
 * `cancellation_status_up` with `hasCancellationComplaints` false, from `draft` (the only status that changes here):
 * `pending` becomes `active` at once (dated now), `active` stays as sent, both cancel; `unsuccessful` withdraws it.
 */
function statusUp(cancellation: Cancellation, tender: Tender, now: Date): string[] {
  const to = cancellation.status;
  if (to === 'unsuccessful') return [];
  requireFilled(cancellation, to);
  if (to === 'pending') {
    cancellation.status = 'active';
    cancellation.date = formatKyiv(now);
  }
  return cancel(procedureOfStored(tender), tender, cancellation, now);
}

/** `CANCELLATION_COMPLAIN_DURATION`: the calendar days complaints of a pending cancellation may be made in. */
const COMPLAINT_DAYS = { days: 10, working: false };

/**
 * `cancellation_status_up` with `hasCancellationComplaints` (docs/tenders.md §Complaints: what a complaint holds):
 * `pending` waits for its complaint period, at whose end it takes effect (complaints/complaint.events.ts), unless
 * a complaint holds the tender or the lot; `unsuccessful` withdraws it. Taking effect at once (`active`) would
 * skip the complaint period: refused with the statuses left.
 */
function statusUpWithComplaints(cancellation: Cancellation, tender: Tender, now: Date): void {
  const to = cancellation.status;
  if (to === 'active') throw apiError(422, ["Value must be one of ['draft', 'pending', 'unsuccessful']."], { name: 'status' });
  if (to !== 'pending') return;
  requireFilled(cancellation, to);
  noHoldingComplaints(tender, cancellation.relatedLot);
  const end = calculateTenderFullDate(now, COMPLAINT_DAYS, dateMathOf(tender));
  cancellation.complaintPeriod = { startDate: formatKyiv(now), endDate: formatKyiv(end) };
}

/** `validate_absence_of_pending_accepted_satisfied_complaints`: of the tender, and of its awards, for the lot or all. */
function noHoldingComplaints(tender: Tender, lot: string | undefined): void {
  const concerns = (complaintLot: string | undefined) => !lot || !complaintLot || lot === complaintLot;
  const found = [
    ...itemsOf(tender, 'complaints').map((c) => ({ c, lot: c.relatedLot, of: 'a tender' })),
    ...itemsOf(tender, 'awards').flatMap((a) => itemsOf(a, 'complaints').map((c) => ({ c, lot: a.lotID, of: 'an award' }))),
  ].find(({ c, lot: complaintLot }) => holds(c) && concerns(complaintLot));
  if (found) throw apiError(403, `Can't perform operation for there is ${found.of} complaint in ${found.c.status} status`);
}

/** `PATCH /tenders/{id}/cancellations/{cancellation_id}` by the owner: 200 with the cancellation as saved. */
export async function patchCancellation(
  session: StoreSession,
  { stored, cancellation: before }: TenderCancellation,
  data: Record<string, unknown>,
  now: Date,
): Promise<Cancellation> {
  const patch = validated<CancellationPatch>(patchCancellationSchema, data);
  const tender = structuredClone(tenderOf(stored.doc));
  const after = { ...before, ...patch };
  checkCancellation(procedureOfStored(tender), tender, before, after, now, 'updated');
  const unchanged = (Object.keys(patch) as (keyof CancellationPatch)[]).every((k) => before[k] === patch[k]);
  if (unchanged) return before;
  let cancelled: string[] = [];
  if (after.status !== before.status && stored.doc.config?.hasCancellationComplaints) statusUpWithComplaints(after, tender, now);
  else if (after.status !== before.status) cancelled = statusUp(after, tender, now);
  tender.cancellations = cancellationsOf(tender).map((c) => (c.id === before.id ? after : c));
  await saveCancellations(session, stored, tender, now, cancelled);
  return after;
}

/**
 * A cancellation's documents, as the reference's `CancellationDocumentState`: changed by the tender's owner while
 * the tender may still be cancelled, whatever the cancellation's status; saved with the tender.
 */
export function cancellationDocuments(held: TenderCancellation): DocumentHolder & TenderCancellation {
  const { stored, cancellation } = held;
  return {
    ...held,
    documents: itemsOf(cancellation, 'documents'),
    listPath: `/api/2.5/tenders/${stored.doc.data.id}/cancellations/${cancellation.id}/documents`,
    parent: tenderOf(stored.doc),
    writable: () => cancellationInAllowedTenderStatus(procedureOfStored(stored.doc.data), tenderOf(stored.doc)),
    async save(documents, session, now) {
      const tender = structuredClone(tenderOf(stored.doc));
      // The document routes hand back the documents they checked (docs/platform.md §Document versions).
      tender.cancellations = cancellationsOf(tender).map((c) =>
        c.id === cancellation.id ? { ...c, documents: documents as Document[] } : c,
      );
      await saveCancellations(session, stored, tender, now);
    },
  };
}
