import type { RouteDeps } from '../../app-deps';
import { bodyData } from '../../http/body';
import { absoluteUrl, created } from '../../http/render';
import { route, type MountableRoute } from '../../http/route';
import { actorOf } from '../core/actor';
import type { ObjectDoc } from '../core/object-doc';
import { loadObject } from '../core/objects';
import { changeOwnership, OWNERSHIP, ownershipSchema } from './ownership';
import { createTransfer, createTransferSchema, loadTransfer } from './transfer.lifecycle';
import type { OwnedObject } from './transfer.types';

/**
 * `/transfers` and every kind's `/ownership` (docs/relocation.md). Each is for brokers only, judged before the
 * transfer or the object is looked for: an anonymous request answers 403 even for an unknown id, as it always has.
 */
export function transferRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  return [
    route({
      method: 'post',
      path: '/api/2.5/transfers',
      summary: 'Creates a transfer: its id and the owner and transfer tokens it will hand over',
      access: 'broker',
      body: [{ data: createTransferSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx) => {
        const { doc, access } = await createTransfer(ctx.state.session, bodyData(ctx), actorOf(ctx));
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/transfers/${doc.data.id}`), { data: doc.data, access });
      },
    }),
    route({
      method: 'get',
      path: '/api/2.5/transfers/:id',
      summary: 'A transfer, with `usedFor` once used',
      // `view_transfer`: brokers only, the public part.
      access: 'broker',
      result: 'object',
      handle: async (ctx) => {
        ctx.body = { data: (await loadTransfer(ctx.state.session, ctx.params.id)).doc.data };
      },
    }),
    ...Object.values(OWNERSHIP).map((policy) =>
      route({
        method: 'post',
        path: `/api/2.5/${policy.kind}/:id/ownership`,
        summary: `Gives one of ${policy.kind} to the broker of a transfer`,
        access: 'broker',
        body: [{ data: ownershipSchema }],
        result: 'object',
        writes: true,
        handle: async (ctx) => {
          const stored = await loadObject<ObjectDoc<OwnedObject, object, object>>(ctx.state.session, policy.kind, ctx.params.id);
          const moved = await changeOwnership(ctx.state.session, policy, stored, () => bodyData(ctx), actorOf(ctx), deps.accounts);
          ctx.body = { data: moved };
        },
      }),
    ),
  ];
}
