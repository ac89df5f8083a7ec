import type { Viewer } from '../../http/auth';
import type { Ctx } from '../../http/context';
import type { Doc, Kind } from '../../store/port';
import { loadObject, loadView, type ObjectDoc } from './objects';
import { apiJson } from '../../store/api-json';

/** What `GET /{kind}/{id}` answers a viewer: `{data, config}` as that viewer may see them. */
export type Present = (doc: ObjectDoc, viewer: Viewer) => Doc;

/**
 * `GET /{kind}/{id}`. A view depends on the stored version and the reader's account alone, so it is rendered
 * once per version and reader (once for everyone when the object is not restricted) and kept in the app's
 * views; later reads only ask the store whether the object is still at that version. An unrestricted object's
 * view comes from the store as ready JSON (`StoreSession.getView`), never parsed and re-stringified here.
 * `opt_pretty` renderings are made per request.
 */
export async function answerObject(ctx: Ctx, kind: Kind, present: Present): Promise<void> {
  const { session, viewer, views } = ctx.state;
  const id: string = ctx.params.id;
  if (ctx.query.opt_pretty) {
    ctx.body = present((await loadObject(session, kind, id)).doc, viewer);
    return;
  }
  const kept = views.get(kind, id, viewer.account);
  const stored = await loadView(session, kind, id, kept);
  if (stored === 'unchanged') return sendRendered(ctx, kept!.body);
  if ('json' in stored) {
    views.remember(kind, id, viewer.account, { seq: stored.seq, body: stored.json, forEveryone: true, confirmed: stored.confirmed });
    return sendRendered(ctx, stored.json);
  }
  const body = Buffer.from(apiJson(present(stored.doc, viewer)));
  views.remember(kind, id, viewer.account, { seq: stored.seq, body, forEveryone: false, confirmed: stored.confirmed });
  sendRendered(ctx, body);
}

function sendRendered(ctx: Ctx, body: Buffer) {
  ctx.type = 'json';
  ctx.body = body;
}
