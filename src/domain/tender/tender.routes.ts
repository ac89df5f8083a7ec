import Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import type { Viewer } from '../../http/auth';
import type { Ctx, RequestState } from '../../http/context';
import { feedRoute, type FeedSource } from '../../http/feed';
import { absoluteUrl, created } from '../../http/render';
import type { Doc } from '../../store/port';
import type { ObjectDoc } from '../core/objects';
import { objectReads } from '../core/object-reads';
import { tenderOcds } from './tender-ocds';
import { refuseSandboxDetails } from '../core/sandbox';
import { addCriteria } from './tender-criteria';
import { addLot, deleteLot, findLot, patchLot } from './tender-lots';
import { answerQuestion, askQuestion, findQuestion } from './tender-questions';
import { createTender, patchTender, procedureOfStored } from './tender-lifecycle';
import { TENDER_MASK } from './tender.mask';
import { visibleData } from './restricted-view';
import type { DocumentHost } from '../core/document-host';
import { documentPatchSchema, TENDER_DOCUMENT_FIELDS, TENDER_DOCUMENT_TYPES } from '../documents/document.schema';
import { loadTender, tenderOf, withTender } from './tender-aggregate';

/** The reader's view: `{data, config}`, hidden parts masked for restricted tenders (spec: endpoint 3). */
export const presentTender = (doc: ObjectDoc, viewer: Viewer): Doc => ({ data: visibleData(doc, viewer, TENDER_MASK), config: doc.config });

/** Spec-era `listing_allowed_fields` of tenders (docs/tenders.md §Tender feed), plus `bids` once public (docs/tenders.md §Bids). */
const FEED_FIELDS = [
  'dateCreated',
  'dateModified',
  'qualificationPeriod',
  'auctionPeriod',
  'awardPeriod',
  'status',
  'tenderID',
  'lots',
  'contracts',
  'bids',
  'agreements',
  'procuringEntity',
  'procurementMethodType',
  'procurementMethod',
  'next_check',
  'mode',
  'stage2TenderID',
];

const tenderFeed: FeedSource = {
  kind: 'tenders',
  allowedFields: FEED_FIELDS,
  entry: (doc, viewer) => ({ data: visibleData(doc as ObjectDoc, viewer, TENDER_MASK) }),
  entryReads: ['owner'],
  releases: tenderOcds.releases,
};

/** A tender document's metadata change, also of its bids', awards' and cancellations' documents (one `Document` model). */
const TENDER_DOCUMENT_OF = ['tender', 'item', 'lot'];
export const tenderDocumentPatch = documentPatchSchema(TENDER_DOCUMENT_OF, TENDER_DOCUMENT_TYPES, TENDER_DOCUMENT_FIELDS);

/** Tender documents: the owner adds them while the procedure lets the tender change; readers see them as the tender. */
export const tenderDocuments: DocumentHost = {
  kind: 'tenders',
  name: 'tender',
  view: (doc, viewer) => visibleData(doc, viewer, TENDER_MASK),
  authority: async (_session, stored) => stored.doc as ObjectDoc,
  acceptsIn: (data) => procedureOfStored(data).editableStatuses,
  documentOf: TENDER_DOCUMENT_OF,
  documentTypes: TENDER_DOCUMENT_TYPES,
  fields: TENDER_DOCUMENT_FIELDS,
  async withDocumentAdded(session, doc, now) {
    const tender = tenderOf(doc);
    const tctx = { now, session, config: doc.config ?? {} };
    for (const rule of procedureOfStored(tender).rules.document) await rule(tender, tctx);
    return withTender(doc, tender);
  },
};

/** The tender of the route's `:id` as this reader sees it: its sub-resources are read from it. */
export const visibleTender = async (ctx: Ctx): Promise<Doc> =>
  presentTender((await loadTender(ctx.state.session, ctx.params.id)).doc, ctx.state.viewer).data;

/** Endpoints 1–4, `POST /tenders/{id}/criteria`, and the lots and questions sub-resources. */
export function tenderRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5' });
  const base = deps.config.publicBaseUrl;

  const sandboxOnly = refuseSandboxDetails('procurementMethodDetails', deps.config);

  router.post('/tenders', sandboxOnly, async (ctx) => {
    const { doc, access } = await createTender(ctx);
    const location = absoluteUrl(ctx, base, `/api/2.5/tenders/${doc.data.id}`);
    created(ctx, location, { data: doc.data, config: doc.config, access });
  });

  objectReads(router, 'tenders', presentTender, { ocds: tenderOcds, publicBaseUrl: base });

  router.patch('/tenders/:id', sandboxOnly, async (ctx) => {
    const doc = await patchTender(ctx, ctx.params.id);
    ctx.body = { data: doc.data, config: doc.config };
  });

  router.post('/tenders/:id/criteria', async (ctx) => {
    const added = await addCriteria(ctx, ctx.params.id);
    ctx.status = 201;
    ctx.body = { data: added };
  });

  router.post('/tenders/:id/lots', async (ctx) => {
    const lot = await addLot(ctx, ctx.params.id);
    created(ctx, absoluteUrl(ctx, base, `/api/2.5/tenders/${ctx.params.id}/lots/${lot.id}`), { data: lot });
  });

  router.get('/tenders/:id/lots', async (ctx) => {
    ctx.body = { data: (await visibleTender(ctx)).lots ?? [] };
  });

  router.get('/tenders/:id/lots/:lotId', async (ctx) => {
    ctx.body = { data: findLot(await visibleTender(ctx), ctx.params.lotId) };
  });

  router.patch('/tenders/:id/lots/:lotId', async (ctx) => {
    ctx.body = { data: await patchLot(ctx, ctx.params.id, ctx.params.lotId) };
  });

  router.delete('/tenders/:id/lots/:lotId', async (ctx) => {
    ctx.body = { data: await deleteLot(ctx, ctx.params.id, ctx.params.lotId) };
  });

  router.post('/tenders/:id/questions', async (ctx) => {
    const question = await askQuestion(ctx, ctx.params.id);
    created(ctx, absoluteUrl(ctx, base, `/api/2.5/tenders/${ctx.params.id}/questions/${question.id}`), { data: question });
  });

  router.get('/tenders/:id/questions', async (ctx) => {
    ctx.body = { data: (await visibleTender(ctx)).questions ?? [] };
  });

  router.get('/tenders/:id/questions/:questionId', async (ctx) => {
    ctx.body = { data: findQuestion(await visibleTender(ctx), ctx.params.questionId) };
  });

  router.patch('/tenders/:id/questions/:questionId', async (ctx) => {
    ctx.body = { data: await answerQuestion(ctx, ctx.params.id, ctx.params.questionId) };
  });

  feedRoute(router, '/tenders', tenderFeed, base);
  return router;
}
