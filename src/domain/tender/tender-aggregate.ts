import type { Doc } from '../core/object-doc';
import type { OwnerSecrets } from '../../security/tokens';
import type { Change, StoreSession, Stored } from '../../store/port';
import { loadObject, updateOf, type ObjectDoc } from '../core/objects';
import { bidAsSeen, bidsArePrivate } from './bids/bid.view';

/** A bid's broker and its token hashes: kept beside the tender for good, never in `data`. */
export interface BidAccess {
  owner: string;
  secrets: OwnerSecrets;
}

/**
 * The members of a stored tender that no reader is shown, declared once (docs/architecture.md §Hidden changes).
 * A change of these alone keeps the tender's feed position and makes no version.
 */
export interface TenderHidden {
  /** The bids while they are private (docs/tenders.md §Bids); they enter `data` when the tender leaves those statuses. */
  sealedBids?: Doc[];
  /** Each bid's broker and token hashes, by bid id. */
  bidAccess?: Record<string, BidAccess>;
  /** Each question's author in full, by question id: readers see only a salted hash (tender-question.lifecycle.ts). */
  questionAuthors?: Record<string, Doc>;
  /** The tender's salt of those hashes. */
  questionSalt?: string;
}

/** A tender as stored: `data` (the owner's full view), `config`, token hashes, and the hidden members. */
export type TenderDoc = ObjectDoc & TenderHidden;
export type StoredTender = Stored & { doc: TenderDoc };

/**
 * The tender aggregate: every tender write goes through `tenderChange` (or `saveTender`), which puts the tender's bids
 * where they belong and keeps its hidden members, so no save site can leak a sealed bid or drop a bid's access.
 */
export const loadTender = (session: StoreSession, id: string): Promise<StoredTender> => loadObject(session, 'tenders', id);

/** The tender as its rules see it: `data` with its bids, sealed or not. */
export const tenderOf = (doc: TenderDoc): Doc => (doc.sealedBids ? { ...doc.data, bids: doc.sealedBids } : doc.data);

/**
 * The document that keeps `tender` (`tenderOf`'s shape) with `doc`'s other members: its bids sealed while they are
 * private, else in `data` as readers see them (docs/tenders.md §Bids).
 */
export function withTender(doc: TenderDoc, tender: Doc): TenderDoc {
  const { bids, ...data } = tender;
  const { sealedBids: _old, ...rest } = doc;
  if (!bids?.length) return { ...rest, data };
  if (bidsArePrivate(tender)) return { ...rest, data, sealedBids: bids };
  return { ...rest, data: { ...data, bids: (bids as Doc[]).map(bidAsSeen) } };
}

export interface TenderSave {
  /** The server-managed arrays this write owns (docs/platform.md §Server-managed arrays). */
  writes?: readonly string[];
  /** Hidden members this write replaces; the others are kept as stored. */
  hidden?: TenderHidden;
}

/** The change that stores `tender` over `stored`, for a commit of its own or beside other objects' changes. */
export const tenderChange = (stored: StoredTender, tender: Doc, { writes = [], hidden = {} }: TenderSave = {}): Change =>
  updateOf(stored, withTender({ ...stored.doc, ...hidden }, tender), writes);

/** Stores `tender` over `stored` in a commit of its own; the document as stored. */
export async function saveTender(session: StoreSession, stored: StoredTender, tender: Doc, save: TenderSave = {}): Promise<TenderDoc> {
  const change = tenderChange(stored, tender, save);
  await session.commit([change]);
  return change.doc as TenderDoc;
}
