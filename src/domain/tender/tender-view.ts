import type { Viewer } from '../../http/auth';
import type { Doc } from '../../store/port';
import type { ObjectDoc } from '../core/objects';
import { withBidsAsSeen } from './bids/bid.view';
import { visibleData } from './restricted-view';
import { TENDER_MASK } from './tender.mask';

/** The tender's data as this reader sees it: hidden parts masked (restricted tenders), bids as the reference shows them. */
export const tenderData = (doc: ObjectDoc, viewer: Viewer): Doc => withBidsAsSeen(visibleData(doc, viewer, TENDER_MASK));
