import type { RouteDeps } from '../../app-deps';
import { bodyConfig, bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { feedRoute, type FeedSource } from '../../http/feed';
import { absoluteUrl, created } from '../../http/render';
import { route, type MountableRoute } from '../../http/route';
import { actorOf } from '../core/actor';
import type { DocumentHost } from '../core/document-host';
import { itemById, itemsOf } from '../core/items';
import { loadObject, type StoredObject } from '../core/objects';
import { objectReadRoutes } from '../core/object-reads';
import { ownerOf } from '../core/owner';
import { refuseSandboxField } from '../core/sandbox';
import { addFrameworkChange } from './framework-changes';
import { createFramework, patchFramework } from './framework.lifecycle';
import { frameworkChangeSchema } from './framework.schema';
import type { FrameworkDoc } from './framework.types';
import { FRAMEWORK_PROCEDURES } from './procedures';

/** Feed fields a client may ask for (docs/frameworks.md §Framework feeds). */
const frameworkFeed: FeedSource = {
  kind: 'frameworks',
  allowedFields: [
    'dateCreated',
    'dateModified',
    'id',
    'title',
    'prettyID',
    'enquiryPeriod',
    'period',
    'qualificationPeriod',
    'status',
    'frameworkType',
    'next_check',
    'public_modified',
    'public_ts',
  ],
  entry: (doc) => ({ data: (doc as FrameworkDoc).data }),
  entryReads: [],
};

/** Frameworks are never restricted; the owner documents them while draft or active (docs/frameworks.md §Framework documents). */
export const frameworkDocuments: DocumentHost = {
  kind: 'frameworks',
  name: 'framework',
  view: (doc: FrameworkDoc) => doc.data,
  authority: async (_session, stored) => stored.doc as FrameworkDoc,
  acceptsIn: () => ['draft', 'active'],
  fields: { language: 'uk' },
};

const view = (doc: FrameworkDoc) => ({ data: doc.data, config: doc.config });
const procedures = Object.values(FRAMEWORK_PROCEDURES);

const loadFramework = (ctx: Ctx): Promise<StoredObject<FrameworkDoc>> =>
  loadObject<FrameworkDoc>(ctx.state.session, 'frameworks', ctx.params.id);

/** The framework's owner: a broker presenting the framework's token. */
const frameworkOwner = ownerOf('the framework', (stored: StoredObject<FrameworkDoc>) => stored.doc);

/**
 * Endpoints 5-7, the framework feed, and qualification-period changes. A framework is never masked, restricted or
 * not (spec: Framework config).
 */
export function frameworkRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  return [
    route({
      method: 'post',
      path: '/api/2.5/frameworks',
      summary: 'Creates a framework (draft)',
      access: 'broker',
      body: procedures.map((p) => ({ data: p.schemas.create, config: p.schemas.config })),
      result: 'created',
      writes: true,
      handle: async (ctx) => {
        refuseSandboxField('frameworkDetails', deps.config, ctx.state.body);
        const body = { data: bodyData(ctx), config: bodyConfig(ctx) };
        const { doc, access } = await createFramework(ctx.state.session, body, actorOf(ctx));
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/frameworks/${doc.data.id}`), { ...view(doc), access });
      },
    }),
    route({
      method: 'patch',
      path: '/api/2.5/frameworks/:id',
      summary: 'Changes or activates a framework',
      load: loadFramework,
      access: frameworkOwner,
      body: procedures.flatMap((p) => [{ data: p.schemas.patchDraft }, { data: p.schemas.patchActive }]),
      result: 'object',
      writes: true,
      handle: async (ctx, stored) => {
        refuseSandboxField('frameworkDetails', deps.config, ctx.state.body);
        ctx.body = view(await patchFramework(ctx.state.session, stored, bodyData(ctx), ctx.state.now));
      },
    }),
    ...objectReadRoutes('frameworks', view),
    route({
      method: 'post',
      path: '/api/2.5/frameworks/:id/changes',
      summary: "Changes an active framework's qualification period",
      load: loadFramework,
      access: frameworkOwner,
      body: [{ data: frameworkChangeSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const change = await addFrameworkChange(ctx.state.session, stored, bodyData(ctx), ctx.state.now);
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/frameworks/${stored.id}/changes/${change.id}`), { data: change });
      },
    }),
    route({
      method: 'get',
      path: '/api/2.5/frameworks/:id/changes',
      summary: 'Changes of a framework',
      load: loadFramework,
      access: 'public',
      result: 'list',
      handle: (ctx, stored) => {
        ctx.body = { data: itemsOf(stored.doc.data, 'changes') };
      },
    }),
    route({
      method: 'get',
      path: '/api/2.5/frameworks/:id/changes/:changeId',
      summary: 'One change of a framework',
      load: loadFramework,
      access: 'public',
      result: 'object',
      handle: (ctx, stored) => {
        ctx.body = { data: itemById(stored.doc.data, 'changes', ctx.params.changeId, 'change_id') };
      },
    }),
    feedRoute(frameworkFeed, base),
  ];
}
