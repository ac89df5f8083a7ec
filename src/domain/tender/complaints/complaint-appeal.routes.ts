import type { RouteDeps } from '../../../app-deps';
import { bodyData } from '../../../http/body';
import type { Ctx } from '../../../http/context';
import { absoluteUrl, created } from '../../../http/render';
import { route, type MountableRoute } from '../../../http/route';
import { documentsOf, documentReadRoutes, documentWriteRoutes, TENDER_SUB_RESOURCE_DOCUMENT_FIELDS } from '../../documents';
import type { ComplaintHost } from '../procedure';
import { tenderDocumentPatch } from '../tender.routes';
import { addAppeal, appealDocuments, appealDocumentsPath, appealOf, patchAppeal, type AppealAuthor } from './complaint-appeals';
import { complaintPath, type TenderComplaint } from './complaint.lifecycle';
import { appealPatchSchema, appealPostSchema } from './complaint.schema';
import { complaintListReads, loadComplaint, roleOf, visibleComplaint } from './complaint-load';

/** The party appealing: the complainant or the tender's owner, by the token it presents; none for anyone else. */
function appellantOf(ctx: Ctx, loaded: TenderComplaint): AppealAuthor | null {
  const role = roleOf(ctx, loaded);
  return role === 'complaint_owner' || role === 'tender_owner' ? role : null;
}

const appellant = {
  owner: "the complaint or the tender (the complaint's or the tender's token)",
  owns: (ctx: Ctx, loaded: TenderComplaint) => appellantOf(ctx, loaded) !== null,
};

/**
 * `…/complaints/{complaint_id}/appeals[/{appeal_id}[/documents…]]` of a complaint of each host at `one`
 * (docs/tenders.md §Complaints: appeals).
 */
export function appealRoutes(deps: RouteDeps, host: ComplaintHost, of: string, one: string): MountableRoute[] {
  const { publicBaseUrl, storedUrlBase, docservice } = deps.config;
  const path = `${one}/appeals`;
  const loadAppeal = async (ctx: Ctx) => {
    const loaded = await loadComplaint(ctx, host, 'read');
    return { ...loaded, appeal: appealOf(loaded.complaint, ctx.params.appealId) };
  };
  return [
    route({
      method: 'post',
      path,
      summary: `Appeals the review body's decision on a complaint of ${of} to court (the complainant or the tender's owner)`,
      load: (ctx) => loadComplaint(ctx, host, 'post'),
      access: appellant,
      body: [{ data: appealPostSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, loaded) => {
        const documents = (appealId: string) => ({
          docservice,
          listUrl: `${storedUrlBase}${appealDocumentsPath(complaintPath(loaded), appealId)}`,
          fields: TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
        });
        const author = appellantOf(ctx, loaded)!;
        const appeal = await addAppeal(ctx.state.session, loaded, bodyData(ctx), author, documents, ctx.state.now);
        created(ctx, absoluteUrl(ctx, publicBaseUrl, `${ctx.path.replace(/\/$/, '')}/${appeal.id}`), { data: appeal });
      },
    }),
    route({
      method: 'patch',
      path: `${path}/:appealId`,
      summary: `Names the court's case of an appeal of a complaint of ${of} (its author, once)`,
      load: async (ctx) => {
        const loaded = await loadComplaint(ctx, host, 'post');
        return { ...loaded, appeal: appealOf(loaded.complaint, ctx.params.appealId) };
      },
      access: appellant,
      body: [{ data: appealPatchSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        const role = appellantOf(ctx, loaded)!;
        ctx.body = { data: await patchAppeal(ctx.state.session, loaded, loaded.appeal, bodyData(ctx), role, ctx.state.now) };
      },
    }),
    ...complaintListReads(host, path, 'appeals', 'appealId', 'appeal_id', [
      `Appeals of a complaint of ${of}`,
      `One appeal of a complaint of ${of}`,
    ]),
    ...documentWriteRoutes(deps, {
      path: `${path}/:appealId/documents`,
      load: async (ctx) => {
        const loaded = await loadComplaint(ctx, host, 'post');
        const appeal = appealOf(loaded.complaint, ctx.params.appealId);
        const role = appellantOf(ctx, loaded);
        const listPath = appealDocumentsPath(complaintPath(loaded), appeal.id);
        return { ...appealDocuments(loaded, appeal, role, listPath, ctx.params.documentId), role };
      },
      access: { owner: appellant.owner, owns: (_ctx, { role }) => role !== null },
      schema: tenderDocumentPatch,
      fields: TENDER_SUB_RESOURCE_DOCUMENT_FIELDS,
    }),
    ...documentReadRoutes(deps, {
      path: `${path}/:appealId/documents`,
      load: loadAppeal,
      visible: (ctx, loaded) => documentsOf(appealOf(visibleComplaint(ctx, loaded), loaded.appeal.id)),
      stored: ({ appeal }) => documentsOf(appeal),
    }),
  ];
}
