import type { Change, StoreSession } from '../../store/port';
import { nextCheckOf } from '../core/events';
import { loadObject } from '../core/objects';
import { updateOf } from '../save-rules';
import { bidAsSeen, bidsArePrivate } from './bids/bid.view';
import type { TenderProcedure } from './procedure';
import { tenderEventsOf } from './tender.events';
import { procedureOf } from './procedures';
import type { StoredTender, Tender, TenderDoc, TenderHidden } from './tender.types';

export type { BidAccess, StoredTender, TenderDoc, TenderHidden } from './tender.types';

/**
 * The tender aggregate: every tender write goes through `tenderChange` (or `saveTender`), which puts the tender's bids
 * where they belong, keeps its hidden members and sets its `next_check` from its events, so no save site can leak a
 * sealed bid, drop a bid's access or leave a check unplanned; `updateOf` keeps `dateModified` from going back.
 */
export const loadTender = (session: StoreSession, id: string): Promise<StoredTender> => loadObject<TenderDoc>(session, 'tenders', id);

/** The tender as its rules see it: `data` with its bids, sealed or not. */
export const tenderOf = (doc: TenderDoc): Tender => (doc.sealedBids ? { ...doc.data, bids: doc.sealedBids } : doc.data);

/**
 * The document that keeps `tender` (`tenderOf`'s shape) with `doc`'s other members: its bids sealed while they are
 * private, else in `data` as readers see them (docs/tenders.md §Bids).
 */
export function withTender(doc: TenderDoc, tender: Tender): TenderDoc {
  const { bids, ...data } = tender;
  const { sealedBids: _old, ...rest } = doc;
  if (!bids?.length) return { ...rest, data };
  if (bidsArePrivate(procedureOf(tender.procurementMethodType)!, tender)) return { ...rest, data, sealedBids: bids };
  return { ...rest, data: { ...data, bids: bids.map(bidAsSeen) } };
}

/** The tender with `next_check` = its earliest pending event, or without one (docs/tenders.md §Tender events and next_check). */
export function withNextCheck(procedure: TenderProcedure, tender: Tender): Tender {
  const { next_check: _old, ...rest } = tender;
  const next = nextCheckOf(tenderEventsOf(procedure)(tender));
  return next ? { ...rest, next_check: next } : rest;
}

export interface TenderSave {
  /** The server-managed arrays this write owns (docs/platform.md §Server-managed arrays). */
  writes?: readonly string[];
  /** Hidden members this write replaces; the others are kept as stored. */
  hidden?: TenderHidden;
}

/** The change that stores `tender` over `stored`, for a commit of its own or beside other objects' changes. */
export const tenderChange = (stored: StoredTender, tender: Tender, { writes = [], hidden = {} }: TenderSave = {}): Change =>
  updateOf(stored, withTender({ ...stored.doc, ...hidden }, withNextCheck(procedureOf(tender.procurementMethodType)!, tender)), writes);

/** Stores `tender` over `stored` in a commit of its own; the document as stored. */
export async function saveTender(session: StoreSession, stored: StoredTender, tender: Tender, save: TenderSave = {}): Promise<TenderDoc> {
  const change = tenderChange(stored, tender, save);
  await session.commit([change]);
  return change.doc as TenderDoc;
}
