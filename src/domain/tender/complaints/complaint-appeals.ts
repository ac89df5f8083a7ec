import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../../http/errors';
import type { StoreSession } from '../../../store/port';
import { formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import { itemById, itemsOf } from '../../core/items';
import type { Document } from '../../core/shapes';
import { validated } from '../../core/validation';
import { bodyDocuments, findDocument, type BodyDocuments, type DocumentHolder } from '../../documents';
import { isFinal } from '../procedure';
import { procedureOfStored } from '../tender.lifecycle';
import { tenderOf } from '../tender-aggregate';
import type { Complaint, ComplaintAppeal, Tender } from '../tender.types';
import { saveComplaint, type TenderComplaint } from './complaint.lifecycle';
import { appealPatchSchema, appealPostSchema, type AppealPatch, type AppealPost } from './complaint.schema';

/**
 * A complaint's appeals (docs/tenders.md §Complaints: appeals; the reference's `complaint_appeal` model, state and
 * views): once the review body has decided, the complainant or the tender's owner says it has taken the decision to
 * court, with documents of its own; its author later names the court's case (`proceeding`), once.
 */

export type AppealAuthor = ComplaintAppeal['author'];

/** The complaint statuses an appeal is made or changed in: the review body's decisions and the owner's resolution. */
const APPEALABLE = ['invalid', 'satisfied', 'declined', 'resolved'];

/** The law an appeal is made under, the same on every appeal (`PostAppeal.legislation`). */
const LEGISLATION: ComplaintAppeal['legislation'] = {
  version: '2020-04-19',
  type: 'NATIONAL_LEGISLATION',
  article: '18.23',
  identifier: {
    id: '922-VIII',
    legalName: 'Закон України "Про публічні закупівлі"',
    uri: 'https://zakon.rada.gov.ua/laws/show/922-19#n1284',
  },
};

/** `appeal_always`: the tender not yet final, the complaint decided. */
function appealable(tender: Tender, complaint: Complaint): void {
  if (isFinal(procedureOfStored(tender), tender.status)) {
    throw apiError(403, `Can't submit or edit appeal in current (${tender.status}) tender status`);
  }
  if (!APPEALABLE.includes(complaint.status)) {
    throw apiError(403, `Can't submit or edit appeal in current (${complaint.status}) complaint status`);
  }
}

/** The complaint with the appeal `id` replaced by `appeal`, or `appeal` added. */
const withAppeal = (complaint: Complaint, appeal: ComplaintAppeal): Complaint => {
  const appeals = itemsOf(complaint, 'appeals');
  const known = appeals.some((a) => a.id === appeal.id);
  return { ...complaint, appeals: known ? appeals.map((a) => (a.id === appeal.id ? appeal : a)) : [...appeals, appeal] };
};

/** Where an appeal's documents are listed, under the complaint's address `complaintPath`. */
export const appealDocumentsPath = (complaintPath: string, appealId: string) => `${complaintPath}/appeals/${appealId}/documents`;

/**
 * `POST …/complaints/{complaint_id}/appeals` by the complainant or the tender's owner: the body, its documents on
 * the document service, then the tender's and the complaint's status; 201 with the appeal.
 */
export async function addAppeal(
  session: StoreSession,
  loaded: TenderComplaint,
  data: unknown,
  author: AppealAuthor,
  documents: (appealId: string) => Omit<BodyDocuments, 'author'>,
  now: Date,
): Promise<ComplaintAppeal> {
  const request = validated<AppealPost>(appealPostSchema, data);
  const id = newId();
  const given = request.documents ? bodyDocuments(request.documents, { ...documents(id), author }, now) : undefined;
  appealable(tenderOf(loaded.stored.doc), loaded.complaint);
  const stamp = formatKyiv(now);
  const appeal: ComplaintAppeal = {
    description: request.description,
    ...(given ? { documents: given } : {}),
    id,
    dateCreated: stamp,
    datePublished: stamp,
    legislation: LEGISLATION,
    author,
  };
  await saveComplaint(session, loaded, withAppeal(loaded.complaint, appeal), now);
  return appeal;
}

/** The appeal the path names: 404 `appeal_id` when the complaint has none such. */
export const appealOf = (complaint: Complaint, appealId: string): ComplaintAppeal => itemById(complaint, 'appeals', appealId, 'appeal_id');

/**
 * `PATCH …/appeals/{appeal_id}`: only its author changes an appeal, and only to name the court's case, which is
 * then fixed (`validate_complaint_appeal_on_patch`), while the complaint stays appealable.
 */
export async function patchAppeal(
  session: StoreSession,
  loaded: TenderComplaint,
  before: ComplaintAppeal,
  data: unknown,
  role: AppealAuthor,
  now: Date,
): Promise<ComplaintAppeal> {
  const patch = validated<AppealPatch>(appealPatchSchema, data);
  if (role !== before.author) throw apiError(403, 'Appeal can be updated only by author', { location: 'url', name: 'role' });
  if (before.proceeding) throw apiError(422, 'Forbidden to patch proceeding', { name: 'proceeding' });
  appealable(tenderOf(loaded.stored.doc), loaded.complaint);
  const after: ComplaintAppeal = { ...before, ...patch };
  if (isDeepStrictEqual(after, before)) return before;
  await saveComplaint(session, loaded, withAppeal(loaded.complaint, after), now);
  return after;
}

/**
 * An appeal's documents (`ComplaintAppealDocumentState`): added by the appeal's author only, a document's new
 * version or metadata by that document's author only (`documentId`, the one the path names), while the complaint
 * stays appealable.
 */
export function appealDocuments(
  loaded: TenderComplaint,
  appeal: ComplaintAppeal,
  role: AppealAuthor | null,
  listPath: string,
  documentId: string | undefined,
): DocumentHolder {
  const documents = itemsOf(appeal, 'documents');
  const documentAuthor = documentId ? findDocument(documents, documentId).author : undefined;
  return {
    documents,
    listPath,
    author: role ?? undefined,
    writable(verb) {
      if (verb === 'add' && role !== appeal.author) {
        throw apiError(403, 'Appeal document can be added only by appeal author', { location: 'url', name: 'role' });
      }
      if (verb === 'update' && role !== documentAuthor) {
        throw apiError(403, 'Can update document only author', { location: 'url', name: 'role' });
      }
      appealable(tenderOf(loaded.stored.doc), loaded.complaint);
    },
    async save(changed, session, now) {
      // The document routes hand back the documents they checked (docs/platform.md §Document versions).
      const appealAfter = { ...appeal, documents: changed as Document[] };
      await saveComplaint(session, loaded, withAppeal(loaded.complaint, appealAfter), now);
    },
  };
}
