import type { RouteDeps } from '../../../app-deps';
import { bodyData } from '../../../http/body';
import type { Ctx } from '../../../http/context';
import { absoluteUrl, created } from '../../../http/render';
import { route, type MountableRoute } from '../../../http/route';
import { actorOf } from '../../core/actor';
import { isOwner } from '../../core/owner';
import {
  documentsOf,
  documentReadRoutes,
  documentWriteRoutes,
  TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
  type DocumentHolder,
} from '../../documents';
import { bidOwnership } from '../bids/bid.lifecycle';
import type { ComplaintHost } from '../procedure';
import { isWriter, type ComplaintRole, type ComplaintWriter } from './complaint-transitions';
import {
  AUTHOR_OF,
  complaintDocuments,
  createComplaint,
  patchComplaint,
  type TenderComplaint,
  type TenderComplaints,
} from './complaint.lifecycle';
import { complaintListReads, loadComplaint, loadComplaints, roleOf, visibleComplaint, visibleComplaints } from './complaint-load';
import { addPost } from './complaint-posts';
import { appealRoutes } from './complaint-appeal.routes';
import { complaintDocumentPatch, complaintPatchBodies, complaintPostSchema, postComplaintSchemas } from './complaint.schema';

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
      owner: "the complaint or the tender (the complaint's or the tender's token), the payment bot, the review body or the administrator",
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
          const documents = (complaintId: string) => ({
            docservice: deps.config.docservice,
            listUrl: `${deps.config.storedUrlBase}${ctx.path.replace(/\/$/, '')}/${complaintId}/documents`,
            fields: TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
          });
          const made = await createComplaint(ctx.state.session, loaded, bodyData(ctx), complainant, documents);
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
          owns: (ctx, loaded) => isWriter(roleOf(ctx, loaded)),
        },
        body: [{ data: complaintPostSchema }],
        result: 'created',
        writes: true,
        handle: async (ctx, loaded) => {
          const role = roleOf(ctx, loaded) as ComplaintWriter;
          const post = await addPost(ctx.state.session, loaded, bodyData(ctx), AUTHOR_OF[role], ctx.state.now);
          created(ctx, absoluteUrl(ctx, base, `${ctx.path.replace(/\/$/, '')}/${post.id}`), { data: post });
        },
      }),
      ...complaintListReads(host, `${one}/posts`, 'posts', 'postId', 'post_id', [
        `Posts of a complaint of ${of}`,
        `One post of a complaint of ${of}`,
      ]),
      ...documentWriteRoutes<ComplaintDocuments>(deps, {
        path: `${one}/documents`,
        load: async (ctx) => {
          const loaded = await loadComplaint(ctx, host, 'post');
          const role = roleOf(ctx, loaded);
          return { ...complaintDocuments(loaded, role ?? 'bots'), role };
        },
        access: { owner: 'the complaint or the tender, or the review body', owns: (_ctx, { role }) => isWriter(role) },
        schema: complaintDocumentPatch,
        fields: TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
      }),
      ...documentReadRoutes(deps, {
        path: `${one}/documents`,
        load: (ctx) => loadComplaint(ctx, host, 'read'),
        visible: (ctx, loaded) => documentsOf(visibleComplaint(ctx, loaded)),
        stored: ({ complaint }) => documentsOf(complaint),
      }),
      ...appealRoutes(deps, host, of, one),
    ];
  });
}
