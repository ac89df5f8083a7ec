import type { Viewer } from '../../http/auth';
import type { Ctx } from '../../http/context';
import { absoluteUrl } from '../../http/render';
import { releasePackage } from '../../ocds/release-package';
import type { Kind, StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { loadObject, type ObjectDoc } from './objects';
import { versionAt } from './history';
import { recordPackage } from '../../ocds/record-package';
import type { OcdsObject, ViewPart } from '../../ocds/parts';

/** How one kind shows in OCDS: the reader's view of it, and the releases made from that view (docs/ocds.md). */
export interface OcdsKind {
  kind: Kind;
  /** The same data the ordinary `GET /{kind}/{id}` shows this reader, hidden parts included. */
  view: (doc: ObjectDoc, viewer: Viewer) => ViewPart;
  /** The releases of the views listed, in their order; reads what else a release names (a tender's plan). */
  releases: (views: ViewPart[], session: StoreSession) => Promise<OcdsObject[]>;
  /** The package's publisher: the buyer the reference names. */
  publisher: (view: ViewPart) => string | undefined;
}

/** `GET /{kind}/{id}?opt_schema=ocds`: a release package of the object as this reader sees it (docs/ocds.md §Packages). */
export async function answerOcds(ctx: Ctx, ocds: OcdsKind, publicBaseUrl: string | null): Promise<void> {
  const { session, viewer, now } = ctx.state;
  const { doc } = await loadObject(session, ocds.kind, ctx.params.id);
  const view = ocds.view(doc, viewer);
  const uri = absoluteUrl(ctx, publicBaseUrl, `/api/2.5/${ocds.kind}/${String(view.id)}?opt_schema=ocds`);
  ctx.body = releasePackage(uri, { name: ocds.publisher(view) }, await ocds.releases([view], session), formatKyiv(now));
}

/**
 * `GET /{kind}/{id}?opt_schema=ocds-record`: a record package of every revision the object keeps, each shown to this
 * reader as the ordinary read shows that version, hiding included (docs/ocds.md §Records, docs/platform.md §Revision history).
 */
export async function answerOcdsRecord(ctx: Ctx, ocds: OcdsKind, publicBaseUrl: string | null): Promise<void> {
  const { session, viewer, now } = ctx.state;
  const { doc } = await loadObject(session, ocds.kind, ctx.params.id);
  const revisions = await session.history(ocds.kind, ctx.params.id);
  const versions = revisions.length ? revisions.map((_, i) => ({ ...doc, ...versionAt(doc, revisions, i + 1) })) : [doc];
  const views = versions.map((version) => ocds.view(version, viewer));
  const current = views[views.length - 1];
  const uri = absoluteUrl(ctx, publicBaseUrl, `/api/2.5/${ocds.kind}/${String(current.id)}?opt_schema=ocds-record`);
  ctx.body = recordPackage(uri, { name: ocds.publisher(current) }, await ocds.releases(views, session), formatKyiv(now));
}
