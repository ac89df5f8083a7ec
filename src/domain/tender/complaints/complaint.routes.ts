import type { RouteDeps } from '../../../app-deps';
import { inGroup, isBroker } from '../../../http/auth';
import { bodyData } from '../../../http/body';
import type { Ctx } from '../../../http/context';
import { notFound } from '../../../http/errors';
import { absoluteUrl, created } from '../../../http/render';
import { route, type MountableRoute } from '../../../http/route';
import { actorOf } from '../../core/actor';
import { itemById, itemsOf } from '../../core/items';
import { isOwner } from '../../core/owner';
import { visibleData } from '../../core/restricted-view';
import {
  documentsOf,
  documentReadRoutes,
  documentWriteRoutes,
  TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
  type DocumentHolder,
} from '../../documents';
import { bidOwnership } from '../bids/bid.lifecycle';
import type { ComplaintHost } from '../procedure';
import { procedureOfStored } from '../tender.lifecycle';
import { TENDER_MASK } from '../tender.mask';
import { loadTenderOf, tenderDocumentPatch } from '../tender.routes';
import type { Tender } from '../tender.types';
import type { ComplaintRole } from './complaint-transitions';
import {
  AUTHOR_OF,
  complaintDocuments,
  complaintOwnership,
  complaintsAt,
  createComplaint,
  patchComplaint,
  type TenderComplaint,
  type TenderComplaints,
} from './complaint.lifecycle';
import { addPost } from './complaint-posts';
import type { ComplaintPlace } from './complaint.rules';
import { complaintPatchBodies, complaintPostSchema, postComplaintSchemas } from './complaint.schema';

/**
 * `/tenders/{id}[/awards/{award_id}|/cancellations/{cancellation_id}]/complaints[/{complaint_id}[/documents…]]`
 * (docs/tenders.md §Complaints). Which of the three a procedure has is its `complaintRoutes` (404 elsewhere); whether a
 * complaint may be posted is the tender's config. Complaints are public; their tokens stay beside the tender.
 */
const HOSTS: { host: ComplaintHost; of: string; tail: string }[] = [
  { host: 'tender', of: 'a tender', tail: '' },
  { host: 'award', of: 'an award', tail: '/awards/:hostId' },
  { host: 'cancellation', of: 'a cancellation', tail: '/cancellations/:hostId' },
];

/** Where on `tender` the path puts the complaints: 404 naming the award or cancellation when unknown. */
function placeOf(tender: Tender, host: ComplaintHost, hostId: string): ComplaintPlace {
  if (host === 'award') return { host, award: itemById(tender, 'awards', hostId, 'award_id') };
  if (host === 'cancellation') return { host, cancellation: itemById(tender, 'cancellations', hostId, 'cancellation_id') };
  return { host };
}

/** The tender, when its procedure has this host's route for `use` (404 otherwise), and where its complaints are. */
async function loadComplaints(ctx: Ctx, host: ComplaintHost, use: 'read' | 'post'): Promise<TenderComplaints> {
  const stored = await loadTenderOf(ctx);
  if (!procedureOfStored(stored.doc.data).complaintRoutes[use].includes(host)) throw notFound('not_found');
  return { stored, place: placeOf(stored.doc.data, host, ctx.params.hostId) };
}

async function loadComplaint(ctx: Ctx, host: ComplaintHost, use: 'read' | 'post'): Promise<TenderComplaint> {
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
function visibleComplaints(ctx: Ctx, { stored, place }: TenderComplaints) {
  const tender = visibleData(stored.doc, ctx.state.viewer, TENDER_MASK);
  return complaintsAt(tender, placeOf(tender, place.host, ctx.params.hostId));
}

/** The complaint the path names as this reader sees it. */
const visibleComplaint = (ctx: Ctx, loaded: TenderComplaint) =>
  itemById({ complaints: visibleComplaints(ctx, loaded) }, 'complaints', loaded.complaint.id, 'complaint_id');

/**
 * The party changing a complaint (the reference's `authenticated_role`): the payment bot and the review body by
 * their key groups, a broker by the token it presents — the complaint's or the tender's; none for anyone else.
 */
function roleOf(ctx: Ctx, { stored, complaint }: TenderComplaint): ComplaintRole | null {
  const { viewer } = ctx.state;
  if (inGroup(viewer, 'bots')) return 'bots';
  if (inGroup(viewer, 'reviewers')) return 'reviewers';
  if (!isBroker(viewer)) return null;
  if (isOwner(ctx, complaintOwnership(stored, complaint.id))) return 'complaint_owner';
  if (isOwner(ctx, stored.doc)) return 'tender_owner';
  return null;
}

/** The complainant's bid: the one whose token the broker presents (`is_item_owner(request, bid)`). */
function presentedBid(ctx: Ctx, { stored }: TenderComplaints): string | undefined {
  return Object.keys(stored.doc.bidAccess ?? {}).find((id) => isOwner(ctx, bidOwnership(stored.doc, id)));
}

type ComplaintDocuments = DocumentHolder & TenderComplaint & { role: ComplaintRole | null };

export function complaintRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  return HOSTS.flatMap(({ host, of, tail }) => {
    const path = `/api/2.5/tenders/:id${tail}/complaints`;
    const one = `${path}/:complaintId`;
    const changer = {
      owner: "the complaint or the tender (the complaint's or the tender's token), the payment bot or the review body",
      owns: (ctx: Ctx, loaded: TenderComplaint) => roleOf(ctx, loaded) !== null,
    };
    return [
      route({
        method: 'post',
        path,
        summary: `Makes a complaint of ${of} (a draft, with its fee and its own token)`,
        load: (ctx) => loadComplaints(ctx, host, 'post'),
        access: 'broker',
        body: [{ data: postComplaintSchemas[host] }],
        result: 'created',
        writes: true,
        handle: async (ctx, loaded) => {
          const { account, now } = actorOf(ctx);
          const complainant = { account: account.name, now, bidId: presentedBid(ctx, loaded) };
          const made = await createComplaint(ctx.state.session, loaded, bodyData(ctx), complainant);
          const location = `${ctx.path.replace(/\/$/, '')}/${made.complaint.id}`;
          created(ctx, absoluteUrl(ctx, base, location), { data: made.complaint, access: made.access });
        },
      }),
      route({
        method: 'patch',
        path: one,
        summary: `Moves a complaint of ${of} on: payment, review, the complainant's withdrawal, the owner's action`,
        load: (ctx) => loadComplaint(ctx, host, 'post'),
        access: changer,
        body: complaintPatchBodies.map((data) => ({ data })),
        result: 'object',
        writes: true,
        handle: async (ctx, loaded) => {
          ctx.body = { data: await patchComplaint(ctx.state.session, loaded, bodyData(ctx), roleOf(ctx, loaded)!, ctx.state.now) };
        },
      }),
      route({
        method: 'get',
        path,
        summary: `Complaints of ${of}`,
        load: (ctx) => loadComplaints(ctx, host, 'read'),
        access: 'public',
        result: 'list',
        handle: (ctx, loaded) => {
          ctx.body = { data: visibleComplaints(ctx, loaded) };
        },
      }),
      route({
        method: 'get',
        path: one,
        summary: `One complaint of ${of}`,
        load: (ctx) => loadComplaint(ctx, host, 'read'),
        access: 'public',
        result: 'object',
        handle: (ctx, loaded) => {
          ctx.body = { data: visibleComplaint(ctx, loaded) };
        },
      }),
      route({
        method: 'post',
        path: `${one}/posts`,
        summary: `Adds a post to a complaint of ${of}: the review body's question, a party's answer or explanation`,
        load: (ctx) => loadComplaint(ctx, host, 'post'),
        access: {
          owner: 'the complaint or the tender, or the review body',
          owns: (ctx, loaded) => ![null, 'bots'].includes(roleOf(ctx, loaded)),
        },
        body: [{ data: complaintPostSchema }],
        result: 'created',
        writes: true,
        handle: async (ctx, loaded) => {
          const role = roleOf(ctx, loaded) as Exclude<ComplaintRole, 'bots'>;
          const post = await addPost(ctx.state.session, loaded, bodyData(ctx), AUTHOR_OF[role], ctx.state.now);
          created(ctx, absoluteUrl(ctx, base, `${ctx.path.replace(/\/$/, '')}/${post.id}`), { data: post });
        },
      }),
      route({
        method: 'get',
        path: `${one}/posts`,
        summary: `Posts of a complaint of ${of}`,
        load: (ctx) => loadComplaint(ctx, host, 'read'),
        access: 'public',
        result: 'list',
        handle: (ctx, loaded) => {
          ctx.body = { data: itemsOf(visibleComplaint(ctx, loaded), 'posts') };
        },
      }),
      route({
        method: 'get',
        path: `${one}/posts/:postId`,
        summary: `One post of a complaint of ${of}`,
        load: (ctx) => loadComplaint(ctx, host, 'read'),
        access: 'public',
        result: 'object',
        handle: (ctx, loaded) => {
          ctx.body = { data: itemById(visibleComplaint(ctx, loaded), 'posts', ctx.params.postId, 'post_id') };
        },
      }),
      ...documentWriteRoutes<ComplaintDocuments>(deps, {
        path: `${one}/documents`,
        load: async (ctx) => {
          const loaded = await loadComplaint(ctx, host, 'post');
          const role = roleOf(ctx, loaded);
          return { ...complaintDocuments(loaded, role ?? 'bots'), role };
        },
        access: { owner: 'the complaint or the tender, or the review body', owns: (_ctx, { role }) => role !== null && role !== 'bots' },
        schema: tenderDocumentPatch,
        fields: TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
      }),
      ...documentReadRoutes(deps, {
        path: `${one}/documents`,
        load: (ctx) => loadComplaint(ctx, host, 'read'),
        visible: (ctx, loaded) => documentsOf(visibleComplaint(ctx, loaded)),
        stored: ({ complaint }) => documentsOf(complaint),
      }),
    ];
  });
}
