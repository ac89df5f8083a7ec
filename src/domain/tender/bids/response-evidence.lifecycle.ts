import type { Doc } from '../../core/object-doc';
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
import { evidenceSchema } from './requirement-response.schema';
import { criterionOf, findRequirement } from './requirement-response.rules';

/** Tender statuses in which a bidder's evidence may be added (`validate_operation_ecriteria_on_tender_status`). */
const TENDERING = ['draft', 'draft.pending', 'draft.stage2', 'active.tendering'];
/** …and, for a response to a `winner` criterion, the statuses of an awarded bid (`validate_operation_ecriteria_objects_evidences`). */
const AWARDED = ['active.awarded', 'active.qualification'];

const listed = (statuses: string[]) => `[${statuses.map((s) => `'${s}'`).join(', ')}]`;

/**
 * `validate_operation_ecriteria_objects_evidences`: a response to a `winner` criterion takes evidences once the bid
 * has an active award; any other only while tendering lasts.
 */
function requireEvidenceAllowed(tender: Doc, bid: Doc, response: Doc): void {
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
function checkEvidence(tender: Doc, bid: Doc, response: Doc, evidence: Doc): void {
  if (!['pending', 'active'].includes(bid.status)) return;
  if (evidence.type === 'document' && !evidence.relatedDocument)
    throw apiError(422, ['This field is required.'], { name: 'relatedDocument' });
  const documents = ['documents', 'financialDocuments', 'eligibilityDocuments', 'qualificationDocuments'].flatMap((k) => itemsOf(bid, k));
  if (evidence.relatedDocument && !documents.some((d) => d.id === evidence.relatedDocument.id)) {
    throw apiError(422, ['relatedDocument.id should be one of bid documents'], { name: 'relatedDocument' });
  }
  const types = (findRequirement(tender, response.requirement?.id)?.requirement.eligibleEvidences ?? []).map((e: Doc) => e.type);
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
  { stored, bid, response }: TenderBid & { response: Doc },
  data: () => Doc,
  now: Date,
): Promise<Doc> {
  const tender = tenderOf(stored.doc);
  requireEvidenceAllowed(tender, bid, response);
  const evidence: Doc = { type: 'statement', ...validated<Doc>(evidenceSchema, data()) };
  evidence.id ??= newId();
  checkEvidence(tender, bid, response, evidence);
  const responses = itemsOf(bid, 'requirementResponses').map((r) =>
    r.id === response.id ? { ...r, evidences: [...itemsOf(r, 'evidences'), evidence] } : r,
  );
  const bids = bidsOf(tender).map((b) => (b.id === bid.id ? { ...b, requirementResponses: responses } : b));
  // While bids are private the tender's dateModified stays (docs/tenders.md §Bids); afterwards the change is public.
  const dateModified = bidsArePrivate(tender) ? tender.dateModified : formatKyiv(now);
  await saveTender(session, stored, { ...tender, bids, dateModified }, { writes: ['bids'] });
  return evidence;
}
