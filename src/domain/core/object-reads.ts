import type { Viewer } from '../../http/auth';
import type { Ctx } from '../../http/context';
import type { Doc, Kind } from '../../store/port';
import { loadObject, loadObjectIfChanged, type ObjectDoc } from './objects';

/** What `GET /{kind}/{id}` answers a viewer: `{data, config}` as that viewer may see them. */
export type Present = (doc: ObjectDoc, viewer: Viewer) => Doc;

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * `GET /{kind}/{id}`. An anonymous reader's view is rendered once per stored version and kept in the app's
 * AnonymousViews; later anonymous reads only ask the store whether the object is still at that version.
 * Readers with a key, and `opt_pretty` renderings, are made per request.
 */
export async function answerObject(ctx: Ctx, kind: Kind, present: Present): Promise<void> {
  const { session, viewer, views } = ctx.state;
  const id: string = ctx.params.id;
  if (viewer.account || ctx.query.opt_pretty) {
    ctx.body = present((await loadObject(session, kind, id)).doc, viewer);
    return;
  }
  const known = views.get(kind, id);
  const stored = known ? await loadObjectIfChanged(session, kind, id, known.seq) : await loadObject(session, kind, id);
  const view = stored === 'unchanged' ? known! : { seq: stored.seq, body: Buffer.from(JSON.stringify(present(stored.doc, viewer))) };
  if (view !== known) views.remember(kind, id, view);
  ctx.type = JSON_TYPE;
  ctx.body = view.body;
}
