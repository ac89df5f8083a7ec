import type { Viewer } from '../../http/auth';
import type { Ctx } from '../../http/context';
import type { Doc, Kind } from '../../store/port';
import { isRestricted, loadObject, loadObjectIfChanged, type ObjectDoc } from './objects';

/** What `GET /{kind}/{id}` answers a viewer: `{data, config}` as that viewer may see them. */
export type Present = (doc: ObjectDoc, viewer: Viewer) => Doc;

/**
 * `GET /{kind}/{id}`. A view that depends on the stored version alone — the anonymous reader's, and every
 * reader's of an unrestricted object — is rendered once per version and kept in the app's views; later reads
 * only ask the store whether the object is still at that version. A restricted object's view for a reader
 * with a key, and `opt_pretty` renderings, are made per request.
 */
export async function answerObject(ctx: Ctx, kind: Kind, present: Present): Promise<void> {
  const { session, viewer, views } = ctx.state;
  const id: string = ctx.params.id;
  const anonymous = !viewer.account;
  const pretty = !!ctx.query.opt_pretty;
  const kept = pretty ? undefined : views.get(kind, id);
  const usable = kept && (anonymous || kept.forEveryone) ? kept : undefined;
  const stored = usable ? await loadObjectIfChanged(session, kind, id, usable.seq) : await loadObject(session, kind, id);
  if (stored === 'unchanged') return sendRendered(ctx, usable!.body);
  const view = present(stored.doc, viewer);
  const forEveryone = !isRestricted(stored.doc);
  if (pretty || !(anonymous || forEveryone)) {
    ctx.body = view;
    return;
  }
  const body = Buffer.from(JSON.stringify(view));
  views.remember(kind, id, { seq: stored.seq, body, forEveryone });
  sendRendered(ctx, body);
}

function sendRendered(ctx: Ctx, body: Buffer) {
  ctx.type = 'json';
  ctx.body = body;
}
