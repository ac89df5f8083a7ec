import { yieldLoop, type SplicedJson, type SplicedText } from '../http/spliced-json';
import type { OcdsObject, ReleasesOf, ViewPart } from './parts';

/** The extensions the reference declares: its releases carry `bids` and `planning.budget.project`. */
const EXTENSIONS = [
  'https://raw.githubusercontent.com/open-contracting-extensions/ocds_bid_extension/master/extension.json',
  'https://raw.githubusercontent.com/open-contracting-extensions/ocds_project_extension/master/extension.json',
];

/** The publisher of a feed page, which lists many buyers' releases (docs/ocds.md §Feeds). */
export const REGISTRY_PUBLISHER = 'Procurement Registry API 2.5';

/** What a package says of itself: its address, publisher, and `now`, the date of a package of no releases. */
export interface PackageHead {
  uri: string;
  publisher: OcdsObject;
  now: string;
}

/**
 * The members of an OCDS 1.1 package before its releases or records (docs/ocds.md §Packages). `publishedDate` is
 * the latest release's `date`: an on-demand package's date is that of the last change to its contents; a package of
 * no releases takes `now`.
 */
export const packageMembers = (head: PackageHead, latest: string | undefined) => ({
  uri: head.uri,
  version: '1.1',
  extensions: EXTENSIONS,
  publisher: head.publisher,
  publishedDate: latest ?? head.now,
});

/** The later of two release dates; the first of equal ones. */
export const later = (a: string | undefined, b: string): string => (a !== undefined && Date.parse(a) >= Date.parse(b) ? a : b);

/**
 * Each release of `views`, in their order, as the maker gives it, the event loop given back after each release
 * (docs/platform.md §Limits): a tender of 100 lots is 100 releases.
 */
export async function* eachRelease(views: Iterable<ViewPart>, releasesOf: ReleasesOf): AsyncGenerator<OcdsObject> {
  for (const view of views) {
    for (const release of await releasesOf(view)) {
      yield release;
      await yieldLoop();
    }
  }
}

/**
 * An OCDS 1.1 release package of `releases` as JSON text (docs/ocds.md §Packages), written release by release into
 * `json`; `links` follow the releases (a feed page's), asked for once they are written.
 */
export async function releasePackageJson(
  json: SplicedJson,
  head: PackageHead,
  releases: AsyncIterable<OcdsObject>,
  links: () => OcdsObject = () => ({}),
): Promise<SplicedText> {
  const pieces: Buffer[] = [];
  let latest: string | undefined;
  for await (const release of releases) {
    pieces.push(json.render(release, 2));
    latest = later(latest, release.date as string);
  }
  return json.text({ ...packageMembers(head, latest), releases: json.list(pieces, 1), ...links() });
}
