import type { RouteDeps } from '../../app-deps';
import type { Viewer } from '../../http/auth';
import { bodyConfig, bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { apiError } from '../../http/errors';
import { feedHandler, type FeedSource } from '../../http/feed';
import { absoluteUrl, created } from '../../http/render';
import { route, type MountableRoute } from '../../http/route';
import type { Doc } from '../../store/port';
import { actorOf } from '../core/actor';
import { itemById, itemsOf } from '../core/items';
import type { ObjectDoc } from '../core/objects';
import { objectReadRoutes } from '../core/object-reads';
import { tenderOcds } from './tender-ocds';
import { refuseSandboxDetails } from '../core/sandbox';
import { answerQuestionSchema, createTenderQuestionSchema } from '../question/question.schema';
import { criteriaListSchema } from './criteria';
import { TENDER_PROCEDURES } from './procedures';
import { addCriteria } from './tender-criteria';
import { addLot, deleteLot, findLot, patchLot, type TenderLot } from './tender-lots';
import { answerQuestion, askQuestion, findQuestion, type TenderQuestion } from './tender-questions';
import { createTender, patchTender, procedureOfStored } from './tender.lifecycle';
import { lotPatchSchema, lotSchema } from './tender.schema';
import { TENDER_MASK } from './tender.mask';
import { visibleData } from './restricted-view';
import type { DocumentHost } from '../core/document-host';
import { documentPatchSchema, TENDER_DOCUMENT_FIELDS, TENDER_DOCUMENT_TYPES } from '../documents/document.schema';
import { ownerOf } from '../core/owner';
import { loadTender, tenderOf, withTender, type StoredTender } from './tender-aggregate';

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

/** The tender the path's `:id` names, as stored (404 for an unknown one): what a route on it or on its parts loads. */
export const loadTenderOf = (ctx: Ctx): Promise<StoredTender> => loadTender(ctx.state.session, ctx.params.id);

/** `owner` access of the tender's owner, on a route that loads the tender (docs/architecture.md §Routes). */
export const tenderOwner = ownerOf('the tender', (stored: StoredTender) => stored.doc);

/** `owner` access of the tender's owner, on a route that loads a part of the tender with it (`{ stored, … }`). */
export const tenderPartOwner = ownerOf('the tender', ({ stored }: { stored: StoredTender }) => stored.doc);

/** The tender of the route's `:id` as this reader sees it: its sub-resources are read from it. */
export const visibleTender = async (ctx: Ctx): Promise<Doc> => presentTender((await loadTenderOf(ctx)).doc, ctx.state.viewer).data;

/**
 * `GET /tenders/{id}/{list}` and `GET /tenders/{id}/{list}/{item_id}`: a list the tender holds (empty when it has none)
 * and one of its members (404 naming `idName`), as this reader sees the tender; `param` names the id in the path.
 */
export function tenderListReads(list: string, param: string, idName: string, summary: { list: string; one: string }): MountableRoute[] {
  const path = `/api/2.5/tenders/:id/${list}`;
  return [
    route({
      method: 'get',
      path,
      summary: summary.list,
      access: 'public',
      result: 'list',
      handle: async (ctx) => {
        ctx.body = { data: itemsOf(await visibleTender(ctx), list) };
      },
    }),
    route({
      method: 'get',
      path: `${path}/:${param}`,
      summary: summary.one,
      access: 'public',
      result: 'object',
      handle: async (ctx) => {
        ctx.body = { data: itemById(await visibleTender(ctx), list, ctx.params[param], idName) };
      },
    }),
  ];
}

/** The lot the path names, with its stored tender: 404 for an unknown one, before the owner is judged. */
async function loadLot(ctx: Ctx): Promise<TenderLot> {
  const stored = await loadTenderOf(ctx);
  return { stored, lot: findLot(stored.doc.data, ctx.params.lotId) };
}

/** The question the path names, with its stored tender: 404 for an unknown one. */
async function loadQuestion(ctx: Ctx): Promise<TenderQuestion> {
  const stored = await loadTenderOf(ctx);
  return { stored, question: findQuestion(stored.doc.data, ctx.params.questionId) };
}

/** The `data` of `POST /tenders/{id}/criteria`: a list, where every other write takes an object. */
function criteriaList(ctx: Ctx): unknown[] {
  const body = ctx.state.body as { data?: unknown } | undefined;
  const list = body && typeof body === 'object' && Array.isArray(body.data) ? body.data : null;
  if (!list) throw apiError(422, 'Data not available');
  return list;
}

/** Endpoints 1–4, `POST /tenders/{id}/criteria`, and the lots and questions sub-resources. */
export function tenderRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  const procedures = Object.values(TENDER_PROCEDURES);
  const sandboxOnly = refuseSandboxDetails('procurementMethodDetails', deps.config);
  // Refused before the tender is read or the key judged, as when it ran as the routes' middleware.
  const sandboxChecked = (ctx: Ctx) => sandboxOnly(ctx, async () => undefined);
  const tenderPath = (ctx: Ctx, ...parts: string[]) => absoluteUrl(ctx, base, ['/api/2.5/tenders', ctx.params.id, ...parts].join('/'));

  return [
    route({
      method: 'post',
      path: '/api/2.5/tenders',
      summary: 'Creates a tender (draft)',
      load: sandboxChecked,
      access: 'broker',
      body: procedures.map((p) => ({ data: p.schemas.create, config: p.config })),
      result: 'created',
      writes: true,
      handle: async (ctx) => {
        const request = { data: bodyData(ctx), config: () => bodyConfig(ctx) };
        const { doc, access } = await createTender(ctx.state.session, request, actorOf(ctx));
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/tenders/${doc.data.id}`), { data: doc.data, config: doc.config, access });
      },
    }),
    ...objectReadRoutes('tenders', presentTender, { ocds: tenderOcds, publicBaseUrl: base }),
    route({
      method: 'patch',
      path: '/api/2.5/tenders/:id',
      summary: 'Changes or activates a tender',
      load: async (ctx) => {
        await sandboxChecked(ctx);
        return loadTenderOf(ctx);
      },
      access: tenderOwner,
      body: procedures.map((p) => ({ data: p.schemas.patch })),
      result: 'object',
      writes: true,
      handle: async (ctx, stored) => {
        const doc = await patchTender(ctx.state.session, stored, () => bodyData(ctx), ctx.state.now);
        ctx.body = { data: doc.data, config: doc.config };
      },
    }),
    route({
      method: 'post',
      path: '/api/2.5/tenders/:id/criteria',
      summary: 'Adds criteria to a draft tender',
      load: loadTenderOf,
      access: tenderOwner,
      body: [{ data: criteriaListSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const added = await addCriteria(ctx.state.session, stored, () => criteriaList(ctx), ctx.state.now);
        ctx.status = 201;
        ctx.body = { data: added };
      },
    }),
    route({
      method: 'post',
      path: '/api/2.5/tenders/:id/lots',
      summary: 'Adds a lot to a tender',
      load: loadTenderOf,
      access: tenderOwner,
      body: [{ data: lotSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const lot = await addLot(ctx.state.session, stored, () => bodyData(ctx), ctx.state.now);
        created(ctx, tenderPath(ctx, 'lots', lot.id), { data: lot });
      },
    }),
    route({
      method: 'patch',
      path: '/api/2.5/tenders/:id/lots/:lotId',
      summary: 'Changes a lot of a tender',
      load: loadLot,
      access: tenderPartOwner,
      body: [{ data: lotPatchSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await patchLot(ctx.state.session, loaded, () => bodyData(ctx), ctx.state.now) };
      },
    }),
    route({
      method: 'delete',
      path: '/api/2.5/tenders/:id/lots/:lotId',
      summary: 'Deletes a lot nothing names',
      load: loadLot,
      access: tenderPartOwner,
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await deleteLot(ctx.state.session, loaded, ctx.state.now) };
      },
    }),
    ...tenderListReads('lots', 'lotId', 'lot_id', { list: 'Lots of a tender', one: 'One lot of a tender' }),
    route({
      method: 'post',
      path: '/api/2.5/tenders/:id/questions',
      summary: 'Asks a question of a tender',
      load: loadTenderOf,
      access: 'broker',
      body: [{ data: createTenderQuestionSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const question = await askQuestion(ctx.state.session, stored, bodyData(ctx), ctx.state.now);
        created(ctx, tenderPath(ctx, 'questions', question.id), { data: question });
      },
    }),
    route({
      method: 'patch',
      path: '/api/2.5/tenders/:id/questions/:questionId',
      summary: 'Answers a tender question',
      load: loadQuestion,
      access: tenderPartOwner,
      body: [{ data: answerQuestionSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await answerQuestion(ctx.state.session, loaded, bodyData(ctx), ctx.state.now) };
      },
    }),
    ...tenderListReads('questions', 'questionId', 'question_id', { list: 'Questions of a tender', one: 'One question of a tender' }),
    route({
      method: 'get',
      path: '/api/2.5/tenders',
      summary: 'Feed of tenders, paged by next_page.offset',
      access: 'public',
      result: 'feedOrOcds',
      handle: feedHandler(tenderFeed, base),
    }),
  ];
}
