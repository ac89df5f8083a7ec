import Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import { bodyConfig, bodyData } from '../../http/body';
import type { Ctx, RequestState } from '../../http/context';
import { feedRoute } from '../../http/feed';
import { absoluteUrl, created } from '../../http/render';
import { loadObject, type ObjectDoc } from '../core/objects';
import { objectReads } from '../core/object-reads';
import { requireBroker, requireOwner } from '../core/owner';
import { refuseSandboxDetails } from '../core/sandbox';
import { createFramework, patchFramework } from './framework-lifecycle';
import { addFrameworkChange } from './framework-changes';
import { itemById, itemsOf } from '../core/items';

/** Feed fields a client may ask for (docs/frameworks.md §Framework feeds). */
export const FRAMEWORK_FEED_FIELDS = [
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
] as const;

const view = (doc: ObjectDoc) => ({ data: doc.data, config: doc.config });

/** Endpoints 5-7, the framework feed, and qualification-period changes. A framework is never masked, restricted or not (spec: Framework config). */
export function frameworkRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5' });
  const base = deps.config.publicBaseUrl;

  const sandboxOnly = refuseSandboxDetails('frameworkDetails', deps.config);

  router.post('/frameworks', sandboxOnly, async (ctx) => {
    requireBroker(ctx);
    const data = bodyData(ctx);
    const config = bodyConfig(ctx);
    const { doc, access } = await createFramework(ctx.state.session, ctx.state.viewer.account!, { data, config }, ctx.state.now);
    created(ctx, absoluteUrl(ctx, base, `/api/2.5/frameworks/${doc.data.id}`), { ...view(doc), access });
  });

  router.patch('/frameworks/:id', sandboxOnly, async (ctx) => {
    const stored = await loadObject(ctx.state.session, 'frameworks', ctx.params.id);
    requireBroker(ctx);
    requireOwner(ctx, stored.doc);
    const doc = await patchFramework(ctx.state.session, stored, bodyData(ctx), ctx.state.now);
    ctx.body = view(doc);
  });

  objectReads(router, 'frameworks', view);

  router.post('/frameworks/:id/changes', async (ctx) => {
    const stored = await loadObject(ctx.state.session, 'frameworks', ctx.params.id);
    requireBroker(ctx);
    requireOwner(ctx, stored.doc);
    const change = await addFrameworkChange(ctx.state.session, stored, bodyData(ctx), ctx.state.now);
    created(ctx, absoluteUrl(ctx, base, `/api/2.5/frameworks/${ctx.params.id}/changes/${change.id}`), { data: change });
  });

  const frameworkData = async (ctx: Ctx) => (await loadObject(ctx.state.session, 'frameworks', ctx.params.id)).doc.data;

  router.get('/frameworks/:id/changes', async (ctx) => {
    ctx.body = { data: itemsOf(await frameworkData(ctx), 'changes') };
  });

  router.get('/frameworks/:id/changes/:changeId', async (ctx) => {
    ctx.body = { data: itemById(await frameworkData(ctx), 'changes', ctx.params.changeId, 'change_id') };
  });

  feedRoute(
    router,
    '/frameworks',
    {
      kind: 'frameworks',
      allowedFields: FRAMEWORK_FEED_FIELDS,
      entry: (doc) => ({ data: (doc as ObjectDoc).data }),
      entryReads: [],
    },
    base,
  );

  return router;
}
