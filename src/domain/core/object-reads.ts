import type { Viewer } from '../../http/auth';
import type { Ctx } from '../../http/context';
import type { Doc, Kind } from '../../store/port';
import { loadObject, loadView, type ObjectDoc } from './objects';

/** What `GET /{kind}/{id}` answers a viewer: `{data, config}` as that viewer may see them. */
export type Present = (doc: ObjectDoc, viewer: Viewer) => Doc;

/**
 * `GET /{kind}/{id}`. A view that depends on the stored version alone — the anonymous reader's, and every
 * reader's of an unrestricted object — is rendered once per version and kept in the app's views; later reads
 * only ask the store whether the object is still at that version. An unrestricted object's view comes from the
 * store as ready JSON (`StoreSession.getView`), never parsed and re-stringified here. A restricted object's view
 * for a reader with a key, and `opt_pretty` renderings, are made per request.
 */
export async function answerObject(ctx: Ctx, kind: Kind, present: Present): Promise<void> {
  const { session, viewer, views } = ctx.state;
  const id: string = ctx.params.id;
  if (ctx.query.opt_pretty) {
    ctx.body = present((await loadObject(session, kind, id)).doc, viewer);
    return;
  }
  const anonymous = !viewer.account;
  const kept = views.get(kind, id);
  const usable = kept && (anonymous || kept.forEveryone) ? kept : undefined;
  const stored = await loadView(session, kind, id, usable);
  if (stored === 'unchanged') return sendRendered(ctx, usable!.body);
  if ('json' in stored) {
    views.remember(kind, id, { seq: stored.seq, body: stored.json, forEveryone: true });
    return sendRendered(ctx, stored.json);
  }
  const view = present(stored.doc, viewer);
  if (!anonymous) {
    ctx.body = view;
    return;
  }
  const body = Buffer.from(JSON.stringify(view));
  views.remember(kind, id, { seq: stored.seq, body, forEveryone: false });
  sendRendered(ctx, body);
}

function sendRendered(ctx: Ctx, body: Buffer) {
  ctx.type = 'json';
  ctx.body = body;
}
