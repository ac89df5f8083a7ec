import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../../http/errors';
import type { Access } from '../../../security/tokens';
import { issueAccess } from '../../../security/tokens';
import type { StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import { itemsOf } from '../../core/items';
import { validated } from '../../core/validation';
import { bodyDocuments, type BodyDocuments, type DocumentHolder } from '../../documents';
import { isFinal, isIn } from '../procedure';
import { procedureOfStored } from '../tender.lifecycle';
import { tenderChange, tenderOf, type StoredTender } from '../tender-aggregate';
import type { Document } from '../../core/shapes';
import type { Complaint, Tender } from '../tender.types';
import {
  awardDecided,
  awardLotActive,
  complaintFee,
  complaintsAllowed,
  inComplaintPeriod,
  noPendingCancellation,
  objectionsRelate,
  objectionsValid,
  ownBidOfUnsuccessfulAward,
  relatedLotOfTender,
  tenderStatusAllows,
  type ComplaintPlace,
} from './complaint.rules';
import { postComplaintSchemas, type ComplaintRequest } from './complaint.schema';
import { patchOf, withIds, type ComplaintRole } from './complaint-transitions';

/**
 * Complaints of a tender, an award or a cancellation (docs/tenders.md §Complaints): made as a `draft` by a broker
 * with a token of its own (kept beside the tender, `complaintAccess`), paid (the bot's `pending`), reviewed by the
 * review body. Every change is saved with the tender it belongs to, so it is a version of the tender.
 */

/** The complaints at `place` of the tender the path names. */
export interface TenderComplaints {
  stored: StoredTender;
  place: ComplaintPlace;
}

/** One complaint the path names, with where it is. */
export interface TenderComplaint extends TenderComplaints {
  complaint: Complaint;
}

/** The tender list a complaint of each host is saved in (docs/platform.md §Server-managed arrays). */
const LIST_OF = { tender: 'complaints', award: 'awards', cancellation: 'cancellations' } as const;

export const complaintsAt = (tender: Tender, place: ComplaintPlace): Complaint[] =>
  itemsOf(place.award ?? place.cancellation ?? tender, 'complaints');

/** The tender with the complaints at `place` replaced by `complaints`. */
function withComplaintsAt(tender: Tender, place: ComplaintPlace, complaints: Complaint[]): Tender {
  if (place.award) {
    const id = place.award.id;
    return { ...tender, awards: itemsOf(tender, 'awards').map((a) => (a.id === id ? { ...a, complaints } : a)) };
  }
  if (place.cancellation) {
    const id = place.cancellation.id;
    return { ...tender, cancellations: itemsOf(tender, 'cancellations').map((c) => (c.id === id ? { ...c, complaints } : c)) };
  }
  return { ...tender, complaints };
}

/** Every complaint of the tender, wherever it is made: `calculate_total_complaints` numbers them. */
const allComplaints = (tender: Tender): Complaint[] => [
  ...itemsOf(tender, 'complaints'),
  ...itemsOf(tender, 'awards').flatMap((a) => itemsOf(a, 'complaints')),
  ...itemsOf(tender, 'cancellations').flatMap((c) => itemsOf(c, 'complaints')),
];

/** The broker and token hashes of a complaint, as the owner check reads them. */
export function complaintOwnership(stored: StoredTender, complaintId: string) {
  const access = stored.doc.complaintAccess?.[complaintId];
  return { data: { owner: access?.owner }, secrets: access?.secrets };
}

export async function saveComplaints(
  session: StoreSession,
  stored: StoredTender,
  place: ComplaintPlace,
  complaints: Complaint[],
  now: Date,
  complaintAccess = stored.doc.complaintAccess,
): Promise<void> {
  const tender = withComplaintsAt(tenderOf(stored.doc), place, complaints);
  const change = tenderChange(
    stored,
    { ...tender, dateModified: formatKyiv(now) },
    { writes: [LIST_OF[place.host]], hidden: { complaintAccess } },
  );
  await session.commit([change]);
}

/** Saves the complaint `loaded` names as `changed`, the complaints beside it as they are. */
export async function saveComplaint(session: StoreSession, { stored, place, complaint }: TenderComplaint, changed: Complaint, now: Date) {
  const complaints = complaintsAt(tenderOf(stored.doc), place).map((c) => (c.id === complaint.id ? changed : c));
  await saveComplaints(session, stored, place, complaints, now);
}

/** The complaint's lot: the tender complaint's own, the award's or the cancellation's (`complaint_on_post`). */
const relatedLotAt = (place: ComplaintPlace, request: ComplaintRequest) =>
  place.award ? place.award.lotID : place.cancellation ? place.cancellation.relatedLot : request.relatedLot;

export interface Complainant {
  account: string;
  /** The complainant's bid, where it presented that bid's token. */
  bidId?: string;
  now: Date;
}

/**
 * `POST …/complaints` by a broker (`BaseComplaintWriteResource.collection_post`): the body as the model takes it
 * first, with the documents it carries on the document service (listed under `documents(id)`, the complaint's new
 * id), then the state's checks in its order, then the fee; 201 with the `draft` and its own token.
 */
export async function createComplaint(
  session: StoreSession,
  { stored, place }: TenderComplaints,
  data: unknown,
  { account, bidId, now }: Complainant,
  documents: (complaintId: string) => Omit<BodyDocuments, 'author' | 'parent'>,
): Promise<{ complaint: Complaint; access: Access }> {
  const request = validated<ComplaintRequest>(postComplaintSchemas[place.host], data);
  const tender = tenderOf(stored.doc);
  const id = newId();
  const given = request.documents
    ? bodyDocuments(request.documents, { ...documents(id), author: AUTHOR_OF.complaint_owner, parent: tender }, now)
    : [];
  const procedure = procedureOfStored(tender);
  complaintsAllowed(stored.doc.config ?? {}, place.host);
  if (place.cancellation) {
    // `validate_post_cancellation_complaint_permission`: after tendering, only a bidder complains of a cancellation,
    // where the procedure has bids (the limited procedures' state waives it).
    const biddersOnly = procedure.bids && !isIn(procedure, 'tendering', tender.status);
    if (biddersOnly && !bidId) throw apiError(403, 'Forbidden', { location: 'url', name: 'permission' });
  } else {
    tenderStatusAllows(procedure, place.host, tender, 'add');
  }
  if (place.award) awardLotActive(tender, place.award, 'add');
  if (place.host === 'tender') relatedLotOfTender(tender, request.relatedLot);
  const relatedLot = relatedLotAt(place, request);
  objectionsValid(
    request.objections,
    given.map((d) => d.id),
  );
  objectionsRelate(tender, place, { status: 'draft', relatedLot }, request.objections);
  inComplaintPeriod(tender, place, now);
  if (!place.cancellation) noPendingCancellation(tender, relatedLot);
  if (place.award) {
    awardDecided(place.award);
    ownBidOfUnsuccessfulAward(place.award, bidId);
  }
  // `validate_docs`: a new complaint has no posts for a document to belong to.
  if (given.some((d) => d.documentOf === 'post')) {
    throw apiError(422, 'relatedItem should be one of complaint posts', { name: 'relatedItem' });
  }
  const { status: _draft, relatedLot: _asked, objections, documents: _given, ...asked } = request;
  const complaint: Complaint = {
    ...asked,
    type: 'complaint',
    id,
    complaintID: `${tender.tenderID}.a${allComplaints(tender).length + 1}`,
    date: formatKyiv(now),
    status: 'draft',
    ...(relatedLot ? { relatedLot } : {}),
    ...(place.award && bidId ? { bid_id: bidId } : {}),
    ...(objections ? { objections: withIds(objections) } : {}),
    ...(given.length ? { documents: given } : {}),
    value: complaintFee(procedure, tender, relatedLot),
  };
  const { access, secrets } = issueAccess();
  const complaintAccess = { ...stored.doc.complaintAccess, [complaint.id]: { owner: account, secrets } };
  await saveComplaints(session, stored, place, [...complaintsAt(tender, place), complaint], now, complaintAccess);
  return { complaint, access };
}

/**
 * `PATCH …/complaints/{complaint_id}` (`get_patch_action_model_and_handler`, `validate_complaint_on_patch`,
 * `complaint_on_patch`): the tender's status, the move the caller's role may make (before the body is read), the
 * body as that move's model takes it, then the complaint's own checks.
 */
export async function patchComplaint(
  session: StoreSession,
  { stored, place, complaint: before }: TenderComplaint,
  data: Record<string, unknown>,
  role: ComplaintRole,
  now: Date,
): Promise<Complaint> {
  const tender = tenderOf(stored.doc);
  const procedure = procedureOfStored(tender);
  if (!place.cancellation) tenderStatusAllows(procedure, place.host, tender, 'update');
  const after = patchOf(role, before, data, now, place.host);
  if (place.award) awardLotActive(tender, place.award, 'update');
  for (const k of ['id', 'scheme', 'legalName'] as const) {
    if (before.author.identifier[k] !== after.author.identifier[k]) throw apiError(403, `Can't change complaint author ${k}`);
  }
  const reviewed = ['declined', 'accepted', 'satisfied', 'stopped'];
  if (role === 'reviewers' && reviewed.includes(after.status) && !after.reviewDate) {
    throw apiError(422, ['This field is required.'], { name: 'reviewDate' });
  }
  objectionsValid(
    after.objections,
    itemsOf(before, 'documents').map((d) => d.id),
  );
  objectionsRelate(tender, place, after, after.objections);
  if (after.status !== before.status) after.date = formatKyiv(now);
  if (isDeepStrictEqual(after, before)) return before;
  await saveComplaint(session, { stored, place, complaint: before }, after, now);
  return after;
}

/** The complaint's address, `/api/2.5/tenders/{id}[/awards/{award_id}|/cancellations/{cancellation_id}]/complaints/{id}`. */
export function complaintPath({ stored, place, complaint }: TenderComplaint): string {
  const hostPath = place.award ? `/awards/${place.award.id}` : place.cancellation ? `/cancellations/${place.cancellation.id}` : '';
  return `/api/2.5/tenders/${stored.doc.data.id}${hostPath}/complaints/${complaint.id}`;
}

/** Who wrote a document or a post of a complaint, as the reference's `author` names them. */
export const AUTHOR_OF = {
  complaint_owner: 'complaint_owner',
  tender_owner: 'tender_owner',
  reviewers: 'aboveThresholdReviewers',
  bots: 'bots',
  administrator: 'Administrator',
} as const satisfies Record<ComplaintRole, string>;

/** The complaint statuses each party changes a complaint's documents in (`ComplaintDocumentState`). */
const DOCUMENT_STATUSES: Record<ComplaintRole, string[]> = {
  complaint_owner: ['draft', 'pending', 'accepted', 'satisfied'],
  reviewers: ['pending', 'accepted'],
  tender_owner: ['pending', 'accepted', 'satisfied'],
  bots: [],
  administrator: [],
};

/**
 * A complaint's documents, changed by the complainant, the tender's owner or the review body, each in the
 * statuses the reference lets it (`ComplaintDocumentState`); each new document records who wrote it (`author`).
 */
export function complaintDocuments(held: TenderComplaint, role: ComplaintRole): DocumentHolder & TenderComplaint {
  const { stored, complaint } = held;
  const tender = tenderOf(stored.doc);
  return {
    ...held,
    documents: itemsOf(complaint, 'documents'),
    listPath: `${complaintPath(held)}/documents`,
    parent: tender,
    author: AUTHOR_OF[role],
    writable(verb) {
      if (tender.status === 'draft' || isFinal(procedureOfStored(tender), tender.status)) {
        throw apiError(403, `Can't ${verb} document in current (${tender.status}) tender status`);
      }
      if (!DOCUMENT_STATUSES[role].includes(complaint.status)) {
        throw apiError(403, `Can't ${verb} document in current (${complaint.status}) complaint status`);
      }
    },
    checkDocument(document) {
      // `validate_post_docs`: a post's document by the post's author while posts are taken; otherwise only the review
      // body adds documents of its own to a complaint under review.
      const underReview = ['pending', 'accepted'].includes(complaint.status);
      if (document.documentOf === 'post') {
        const post = itemsOf(complaint, 'posts').find((p) => p.id === document.relatedItem);
        if (!post) throw apiError(422, 'relatedItem should be one of complaint posts', { name: 'relatedItem' });
        if (post.author !== AUTHOR_OF[role])
          throw apiError(403, 'Can add document to post only by post author', { location: 'url', name: 'role' });
        if (!underReview) throw apiError(403, `Can't submit or edit post in current (${complaint.status}) complaint status`);
      } else if (role !== 'reviewers' && underReview) {
        throw apiError(
          403,
          `Can submit or edit document not related to post in current (${complaint.status}) complaint status for ${AUTHOR_OF[role]}`,
        );
      }
    },
    async save(documents, session, now) {
      // The document routes hand back the documents they checked (docs/platform.md §Document versions).
      await saveComplaint(session, held, { ...complaint, documents: documents as Document[] }, now);
    },
  };
}
