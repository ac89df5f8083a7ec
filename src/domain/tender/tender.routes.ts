import type { RouteDeps } from '../../app-deps';
import type { Viewer } from '../../http/auth';
import { bodyConfig, bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { feedRoute, type FeedSource } from '../../http/feed';
import { absoluteUrl, created } from '../../http/render';
import { route, type MountableRoute } from '../../http/route';
import { actorOf } from '../core/actor';
import { itemById, itemsOf } from '../core/items';
import { objectReadRoutes } from '../core/object-reads';
import { tenderOcds } from './tender-ocds';
import { refuseSandboxDetails } from '../core/sandbox';
import { TENDER_PROCEDURES } from './procedures';
import { createTender, patchTender, procedureOfStored } from './tender.lifecycle';
import { TENDER_MASK } from './tender.mask';
import { visibleData } from '../core/restricted-view';
import type { DocumentHost } from '../core/document-host';
import { documentPatchSchema, TENDER_DOCUMENT_FIELDS, TENDER_DOCUMENT_TYPES } from '../documents';
import { ownerOf } from '../core/owner';
import { loadTender, tenderOf, withTender, type StoredTender } from './tender-aggregate';
import type { Tender, TenderConfig, TenderDoc } from './tender.types';

/** The reader's view: `{data, config}`, hidden parts masked for restricted tenders (spec: endpoint 3). */
export const presentTender = (doc: TenderDoc, viewer: Viewer): { data: Tender; config?: TenderConfig } => ({
  data: visibleData(doc, viewer, TENDER_MASK),
  config: doc.config,
});

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
  entry: (doc, viewer) => ({ data: visibleData(doc as TenderDoc, viewer, TENDER_MASK) }),
  entryReads: ['owner'],
  releasesOf: tenderOcds.releasesOf,
};

/** A tender document's metadata change, also of its bids', awards' and cancellations' documents (one `Document` model). */
export const TENDER_DOCUMENT_OF = ['tender', 'item', 'lot'];
export const tenderDocumentPatch = documentPatchSchema(TENDER_DOCUMENT_OF, TENDER_DOCUMENT_TYPES, TENDER_DOCUMENT_FIELDS);

/** Tender documents: the owner adds them while the procedure lets the tender change; readers see them as the tender. */
export const tenderDocuments: DocumentHost = {
  kind: 'tenders',
  name: 'tender',
  view: (doc, viewer) => visibleData(doc as TenderDoc, viewer, TENDER_MASK),
  authority: async (_session, stored) => stored.doc as TenderDoc,
  acceptsIn: (data) => procedureOfStored(data).editableStatuses,
  documentOf: TENDER_DOCUMENT_OF,
  documentTypes: TENDER_DOCUMENT_TYPES,
  fields: TENDER_DOCUMENT_FIELDS,
  async withDocumentAdded(session, stored, now) {
    const doc = stored as TenderDoc;
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
export const visibleTender = async (ctx: Ctx): Promise<Tender> => presentTender((await loadTenderOf(ctx)).doc, ctx.state.viewer).data;

/**
 * `GET /tenders/{id}/{list}` and `GET /tenders/{id}/{list}/{item_id}`: a list the tender holds (empty when it has none)
 * and one of its members (404 naming `idName`), as this reader sees the tender; `param` names the id in the path.
 */
export function tenderListReads(
  list: 'lots' | 'questions' | 'awards' | 'cancellations' | 'contracts',
  param: string,
  idName: string,
  summary: { list: string; one: string },
): MountableRoute[] {
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

/** Endpoints 1–4: the tender itself and its feed; its parts have their own folders (lots/, questions/, criteria/, bids/…). */
export function tenderRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  const procedures = Object.values(TENDER_PROCEDURES);
  const sandboxOnly = refuseSandboxDetails('procurementMethodDetails', deps.config);
  // Refused before the tender is read or the key judged, as when it ran as the routes' middleware.
  const sandboxChecked = async (ctx: Ctx): Promise<void> => {
    await sandboxOnly(ctx, async () => undefined);
  };

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
    ...objectReadRoutes('tenders', presentTender, { ocds: tenderOcds, publicBaseUrl: base, recordLimit: deps.config.ocdsRecordLimit }),
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
    feedRoute(tenderFeed, base),
  ];
}
