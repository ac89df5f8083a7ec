import type { Viewer } from '../../http/auth';
import type { Ctx } from '../../http/context';
import { apiError } from '../../http/errors';
import { absoluteUrl, prettyIndent } from '../../http/render';
import { SplicedJson, sendSpliced } from '../../http/spliced-json';
import { eachRelease, releasePackageJson } from '../../ocds/release-package';
import type { Kind, StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { loadObject, type ObjectDoc } from './objects';
import { allVersions } from './history';
import { recordPackageJson } from '../../ocds/record-package';
import type { ReleasesOf, ViewPart } from '../../ocds/parts';

/** How one kind shows in OCDS: the reader's view of it, and the releases made from that view (docs/ocds.md). */
export interface OcdsKind {
  kind: Kind;
  /** The same data the ordinary `GET /{kind}/{id}` shows this reader, hidden parts included. */
  view: (doc: ObjectDoc, viewer: Viewer) => ViewPart;
  /** The maker of releases, one view at a time; reads first what the views listed name (a tender's plan). */
  releasesOf: (views: ViewPart[], session: StoreSession) => Promise<ReleasesOf>;
  /** The package's publisher: the buyer the reference names. */
  publisher: (view: ViewPart) => string | undefined;
}

/** How a kind's object reads answer OCDS: the kind, the answer's origin, and the largest record package, bytes. */
export interface OcdsReads {
  ocds: OcdsKind;
  publicBaseUrl: string | null;
  recordLimit: number;
}

/** `GET /{kind}/{id}?opt_schema=ocds`: a release package of the object as this reader sees it (docs/ocds.md §Packages). */
export async function answerOcds(ctx: Ctx, { ocds, publicBaseUrl }: OcdsReads): Promise<void> {
  const { session, viewer, now } = ctx.state;
  const { doc } = await loadObject(session, ocds.kind, ctx.params.id);
  const view = ocds.view(doc, viewer);
  const uri = absoluteUrl(ctx, publicBaseUrl, `/api/2.5/${ocds.kind}/${String(view.id)}?opt_schema=ocds`);
  const head = { uri, publisher: { name: ocds.publisher(view) }, now: formatKyiv(now) };
  const json = new SplicedJson(prettyIndent(ctx.query));
  sendSpliced(ctx, await releasePackageJson(json, head, eachRelease([view], await ocds.releasesOf([view], session))));
}

/** The refusal of a record package over `OCDS_RECORD_LIMIT` (docs/ocds.md §Records). */
const recordTooLarge = (limit: number) =>
  apiError(
    422,
    `The record package is larger than OCDS_RECORD_LIMIT (${limit} bytes): read the versions one by one from /historical, or the releases with opt_schema=ocds.`,
    { location: 'querystring', name: 'opt_schema' },
  );

/**
 * `GET /{kind}/{id}?opt_schema=ocds-record`: a record package of every revision the object keeps, each shown to this
 * reader as the ordinary read shows that version, hiding included (docs/ocds.md §Records,
 * docs/platform.md §Revision history). The versions are made in one walk back over the revisions; each is viewed and released only when its
 * turn comes, with the event loop given back after every release, and the package is refused once it outgrows
 * `recordLimit` (docs/platform.md §Limits).
 */
export async function answerOcdsRecord(ctx: Ctx, { ocds, publicBaseUrl, recordLimit }: OcdsReads): Promise<void> {
  const { session, viewer, now } = ctx.state;
  const { doc } = await loadObject(session, ocds.kind, ctx.params.id);
  const revisions = await session.history(ocds.kind, ctx.params.id);
  const versions = revisions.length ? allVersions(doc, revisions).map((version) => ({ ...doc, ...version })) : [doc];
  const current = ocds.view(doc, viewer);
  const views = (function* () {
    for (const version of versions) yield ocds.view(version, viewer);
  })();
  const uri = absoluteUrl(ctx, publicBaseUrl, `/api/2.5/${ocds.kind}/${String(current.id)}?opt_schema=ocds-record`);
  const head = { uri, publisher: { name: ocds.publisher(current) }, now: formatKyiv(now) };
  const json = new SplicedJson(prettyIndent(ctx.query), recordLimit, () => recordTooLarge(recordLimit));
  sendSpliced(ctx, await recordPackageJson(json, head, eachRelease(views, await ocds.releasesOf([current], session))));
}
