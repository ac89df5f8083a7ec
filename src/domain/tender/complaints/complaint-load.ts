import { inGroup, isAdministrator, isBroker } from '../../../http/auth';
import type { Ctx } from '../../../http/context';
import { notFound } from '../../../http/errors';
import { route, type MountableRoute } from '../../../http/route';
import { itemById, itemsOf } from '../../core/items';
import { isOwner } from '../../core/owner';
import { visibleData } from '../../core/restricted-view';
import type { ComplaintHost } from '../procedure';
import { procedureOfStored } from '../tender.lifecycle';
import { TENDER_MASK } from '../tender.mask';
import { loadTenderOf } from '../tender.routes';
import type { Tender } from '../tender.types';
import type { ComplaintRole } from './complaint-transitions';
import { complaintOwnership, complaintsAt, type TenderComplaint, type TenderComplaints } from './complaint.lifecycle';
import type { ComplaintPlace } from './complaint.rules';

/**
 * What the complaint routes and their sub-resources (posts, documents, appeals) load from a request's path
 * (docs/tenders.md §Complaints): the tender, where its complaints are, the complaint, and the party asking.
 */

/** Where on `tender` the path puts the complaints: 404 naming the award or cancellation when unknown. */
function placeOf(tender: Tender, host: ComplaintHost, hostId: string): ComplaintPlace {
  if (host === 'award') return { host, award: itemById(tender, 'awards', hostId, 'award_id') };
  if (host === 'cancellation') return { host, cancellation: itemById(tender, 'cancellations', hostId, 'cancellation_id') };
  return { host };
}

/** The tender, when its procedure has this host's route for `use` (404 otherwise), and where its complaints are. */
export async function loadComplaints(ctx: Ctx, host: ComplaintHost, use: 'read' | 'post'): Promise<TenderComplaints> {
  const stored = await loadTenderOf(ctx);
  if (!procedureOfStored(stored.doc.data).complaintRoutes[use].includes(host)) throw notFound('not_found');
  return { stored, place: placeOf(stored.doc.data, host, ctx.params.hostId) };
}

export async function loadComplaint(ctx: Ctx, host: ComplaintHost, use: 'read' | 'post'): Promise<TenderComplaint> {
  const loaded = await loadComplaints(ctx, host, use);
  const complaint = itemById(
    { complaints: complaintsAt(loaded.stored.doc.data, loaded.place) },
    'complaints',
    ctx.params.complaintId,
    'complaint_id',
  );
  return { ...loaded, complaint };
}

/** The complaints at the path's place as this reader sees the tender (masked where it is restricted). */
export function visibleComplaints(ctx: Ctx, { stored, place }: TenderComplaints) {
  const tender = visibleData(stored.doc, ctx.state.viewer, TENDER_MASK);
  return complaintsAt(tender, placeOf(tender, place.host, ctx.params.hostId));
}

/** The complaint the path names as this reader sees it. */
export const visibleComplaint = (ctx: Ctx, loaded: TenderComplaint) =>
  itemById({ complaints: visibleComplaints(ctx, loaded) }, 'complaints', loaded.complaint.id, 'complaint_id');

/**
 * The party changing a complaint (the reference's `authenticated_role`): the payment bot and the review body by
 * their key groups, a broker by the token it presents — the complaint's or the tender's; none for anyone else.
 */
export function roleOf(ctx: Ctx, { stored, complaint }: TenderComplaint): ComplaintRole | null {
  const { viewer } = ctx.state;
  if (inGroup(viewer, 'bots')) return 'bots';
  if (isAdministrator(viewer)) return 'administrator';
  if (inGroup(viewer, 'reviewers')) return 'reviewers';
  if (!isBroker(viewer)) return null;
  if (isOwner(ctx, complaintOwnership(stored, complaint.id))) return 'complaint_owner';
  if (isOwner(ctx, stored.doc)) return 'tender_owner';
  return null;
}

/**
 * The public reads of a list a complaint holds (`posts`, `appeals`) at `path`: the list and one item by the path's
 * `param`, as the complaint is visible to the reader (404 `idName`).
 */
export function complaintListReads(
  host: ComplaintHost,
  path: string,
  list: 'posts' | 'appeals',
  param: string,
  idName: string,
  summaries: [string, string],
): MountableRoute[] {
  const load = (ctx: Ctx) => loadComplaint(ctx, host, 'read');
  return [
    route({
      method: 'get',
      path,
      summary: summaries[0],
      load,
      access: 'public',
      result: 'list',
      handle: (ctx, loaded) => {
        ctx.body = { data: itemsOf(visibleComplaint(ctx, loaded), list) };
      },
    }),
    route({
      method: 'get',
      path: `${path}/:${param}`,
      summary: summaries[1],
      load,
      access: 'public',
      result: 'object',
      handle: (ctx, loaded) => {
        ctx.body = { data: itemById(visibleComplaint(ctx, loaded), list, ctx.params[param], idName) };
      },
    }),
  ];
}
