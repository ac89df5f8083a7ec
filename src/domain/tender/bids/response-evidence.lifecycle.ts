import { apiError } from '../../../http/errors';
import type { StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import { itemsOf } from '../../core/items';
import { validated } from '../../core/validation';
import { saveTender, tenderOf } from '../tender-aggregate';
import type { TenderBid } from './bid.lifecycle';
import { bidsOf } from './bid.lifecycle';
import { bidsArePrivate } from './bid.view';
import { procedureOfStored } from '../tender.lifecycle';
import { evidenceSchema } from './requirement-response.schema';
import { BID_DOCUMENTS, criterionOf, findRequirement } from './requirement-response.rules';
import type { Bid, Evidence, EvidenceRequest, RequirementResponse, Tender } from '../tender.types';

const listed = (statuses: string[]) => `[${statuses.map((s) => `'${s}'`).join(', ')}]`;

/**
 * `validate_operation_ecriteria_on_tender_status` and `validate_operation_ecriteria_objects_evidences`: a response to
 * a `winner` criterion takes evidences once the bid has an active award; any other only while tendering lasts
 * (the procedure's `evidence` and `winnerEvidence` windows).
 */
function requireEvidenceAllowed(tender: Tender, bid: Bid, response: RequirementResponse): void {
  const { evidence: TENDERING, winnerEvidence: AWARDED } = procedureOfStored(tender).windows;
  const winner = criterionOf(tender, response.requirement?.id)?.source === 'winner';
  if (winner) {
    if (!AWARDED.includes(tender.status)) throw apiError(403, `available only in ${listed(AWARDED)} statuses`);
    if (!itemsOf(tender, 'awards').some((a) => a.status === 'active' && a.bid_id === bid.id)) {
      throw apiError(403, 'Winner criteria available only with active award');
    }
  }
  const valid = winner ? [...TENDERING, ...AWARDED] : TENDERING;
  if (!valid.includes(tender.status)) throw apiError(403, `Can't post object if tender not in ${listed(TENDERING)} statuses`);
}

/** `Evidence` and `BidReqResponseEvidenceState` on a submitted bid: a document evidence names one of the bid's documents. */
function checkEvidence(tender: Tender, bid: Bid, response: RequirementResponse, evidence: Evidence): void {
  if (!['pending', 'active'].includes(bid.status)) return;
  if (evidence.type === 'document' && !evidence.relatedDocument)
    throw apiError(422, ['This field is required.'], { name: 'relatedDocument' });
  const documents = BID_DOCUMENTS.flatMap((k) => itemsOf(bid, k));
  const { relatedDocument } = evidence;
  if (relatedDocument && !documents.some((d) => d.id === relatedDocument.id)) {
    throw apiError(422, ['relatedDocument.id should be one of bid documents'], { name: 'relatedDocument' });
  }
  const types = (findRequirement(tender, response.requirement?.id)?.requirement.eligibleEvidences ?? []).map((e) => e.type);
  if (types.length && !types.includes(evidence.type))
    throw apiError(422, ['type should be one of eligibleEvidences types'], { name: 'type' });
}

/**
 * `POST /tenders/{id}/bids/{bid_id}/requirement_responses/{requirement_response_id}/evidences` by the bid's owner
 * (docs/tenders.md §Requirement responses): how the winner supports its answer to the `winner` criteria (the contract
 * guarantee) before the contract. While tendering lasts the change is hidden like every bid change, and a `pending`
 * bid stays `pending`, as after its other changes (docs/tenders.md §Bids: HEAD's `invalidate_pending_bid` is not applied).
 */
export async function addEvidence(
  session: StoreSession,
  { stored, bid, response }: TenderBid & { response: RequirementResponse },
  data: () => unknown,
  now: Date,
): Promise<Evidence> {
  const tender = tenderOf(stored.doc);
  requireEvidenceAllowed(tender, bid, response);
  const request: EvidenceRequest = { type: 'statement', ...validated<EvidenceRequest>(evidenceSchema, data()) };
  const evidence: Evidence = { ...request, id: request.id ?? newId() };
  checkEvidence(tender, bid, response, evidence);
  const responses = itemsOf(bid, 'requirementResponses').map((r) =>
    r.id === response.id ? { ...r, evidences: [...itemsOf(r, 'evidences'), evidence] } : r,
  );
  const bids = bidsOf(tender).map((b) => (b.id === bid.id ? { ...b, requirementResponses: responses } : b));
  // While bids are private the tender's dateModified stays (docs/tenders.md §Bids); afterwards the change is public.
  const dateModified = bidsArePrivate(procedureOfStored(tender), tender) ? tender.dateModified : formatKyiv(now);
  await saveTender(session, stored, { ...tender, bids, dateModified }, { writes: ['bids'] });
  return evidence;
}
