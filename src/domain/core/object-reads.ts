import type { Viewer } from '../../http/auth';
import type { Ctx } from '../../http/context';
import { apiError } from '../../http/errors';
import { route, type MountableRoute } from '../../http/route';
import type { Kind, Revision } from '../../store/port';
import { parseIsoDate } from '../../time/kyiv';
import { revisionHash, versionAt } from './history';
import { loadObject, loadView, type ObjectDoc } from './objects';
import { answerOcds, answerOcdsRecord, type OcdsReads } from './ocds-reads';
import { wantsOcds, wantsOcdsRecord } from '../../ocds/ocds-option';
import { apiJson } from '../../store/api-json';

/** What `GET /{kind}/{id}` answers a viewer: `{data, config}` as that viewer may see them. */
export type Present = (doc: ObjectDoc, viewer: Viewer) => { data: unknown; config?: unknown };

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

/** The headers `GET /{kind}/{id}/historical` reads (docs/platform.md §Revision history). */
const REVISION_HEADERS = [
  { name: 'X-Revision-N', description: 'the version, from 1 (as created); the current one without it' },
  { name: 'X-Revision-Date', description: 'an ISO 8601 date-time: the version current then' },
  { name: 'X-Revision-Hash', description: "the version's hash, as answered: 404 if it names another" },
];

/** The routes of `objectReads`, for a kind served by the route table (docs/architecture.md §Routes). */
export function objectReadRoutes(kind: Kind, present: Present, ocds?: OcdsReads): MountableRoute[] {
  return [
    route({
      method: 'get',
      path: `/api/2.5/${kind}/:id`,
      summary: `One of ${kind}`,
      access: 'public',
      result: ocds ? 'objectOrOcds' : 'object',
      handle: (ctx) => {
        if (!ocds || !wantsOcds(ctx.query)) return answerObject(ctx, kind, present);
        return (wantsOcdsRecord(ctx.query) ? answerOcdsRecord : answerOcds)(ctx, ocds);
      },
    }),
    route({
      method: 'get',
      path: `/api/2.5/${kind}/:id/historical`,
      summary: `One of ${kind} as it was at a version (X-Revision-N, X-Previous-Hash answered)`,
      access: 'public',
      result: 'object',
      headers: REVISION_HEADERS,
      handle: (ctx) => answerHistorical(ctx, kind, present),
    }),
  ];
}

const versionNotFound = (name: 'version' | 'hash') => apiError(404, 'Not Found', { location: 'header', name });

/**
 * The version a request asks for (docs/platform.md §Revision history): `X-Revision-Date`, the version current then;
 * else `X-Revision-N`; else the current one. The reference's answers: `404 header/version` for a number that is not
 * one of the object's versions or a date before the first, `404 header/hash` for an `X-Revision-Hash` of another
 * revision.
 */
function requestedVersion(ctx: Ctx, id: string, revisions: Revision[]): number {
  const number = ctx.get('x-revision-n');
  const validNumber = /^\d+$/.test(number) && Number(number) >= 1;
  const date = ctx.get('x-revision-date') ? parseIsoDate(ctx.get('x-revision-date')) : null;
  let n = revisions.length;
  if (date) {
    n = revisions.filter((revision) => revision.seq * 1000 <= date.getTime()).length;
    if (n === 0) throw versionNotFound('version');
  } else if (number || ctx.get('x-revision-date')) {
    if (!validNumber || Number(number) > revisions.length) throw versionNotFound('version');
    n = Number(number);
  }
  const hash = ctx.get('x-revision-hash');
  if (hash && hash !== revisionHash(id, revisions[n - 1])) throw versionNotFound('hash');
  return n;
}

/**
 * `GET /{kind}/{id}/historical`: the object at the version asked for, shown to this reader exactly as the object's
 * own read shows its current version, hiding included (docs/platform.md §Revision history).
 */
export async function answerHistorical(ctx: Ctx, kind: Kind, present: Present): Promise<void> {
  const { session, viewer } = ctx.state;
  const id: string = ctx.params.id;
  // The object and its history are two reads: a commit between them is read again.
  for (let attempt = 1; ; attempt++) {
    const stored = await loadObject(session, kind, id);
    const revisions = await session.history(kind, id);
    const last = revisions[revisions.length - 1];
    if (last && last.seq !== stored.seq && attempt < 3) continue;
    const n = requestedVersion(ctx, id, revisions);
    ctx.set('X-Revision-N', String(n));
    ctx.set('X-Revision-Hash', revisionHash(id, revisions[n - 1]));
    ctx.set('X-Previous-Hash', revisionHash(id, revisions[n - 2]));
    ctx.body = present({ ...stored.doc, ...versionAt(stored.doc, revisions, n) }, viewer);
    return;
  }
}
