import type { Viewer } from '../../http/auth';
import type { Ctx } from '../../http/context';
import { absoluteUrl } from '../../http/render';
import { releasePackage } from '../../ocds/release-package';
import type { Doc, Kind, StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { loadObject, type ObjectDoc } from './objects';

/** How one kind shows in OCDS: the reader's view of it, and the releases made from that view (docs/ocds.md). */
export interface OcdsKind {
  kind: Kind;
  /** The same data the ordinary `GET /{kind}/{id}` shows this reader, hidden parts included. */
  view: (doc: ObjectDoc, viewer: Viewer) => Doc;
  /** The releases of the views listed, in their order; reads what else a release names (a tender's plan). */
  releases: (views: Doc[], session: StoreSession) => Promise<Doc[]>;
  /** The package's publisher: the buyer the reference names. */
  publisher: (view: Doc) => string | undefined;
}

/** `GET /{kind}/{id}?opt_schema=ocds`: a release package of the object as this reader sees it (docs/ocds.md §Packages). */
export async function answerOcds(ctx: Ctx, ocds: OcdsKind, publicBaseUrl: string | null): Promise<void> {
  const { session, viewer, now } = ctx.state;
  const { doc } = await loadObject(session, ocds.kind, ctx.params.id);
  const view = ocds.view(doc, viewer);
  const uri = absoluteUrl(ctx, publicBaseUrl, `/api/2.5/${ocds.kind}/${view.id}?opt_schema=ocds`);
  ctx.body = releasePackage(uri, { name: ocds.publisher(view) }, await ocds.releases([view], session), formatKyiv(now));
}
