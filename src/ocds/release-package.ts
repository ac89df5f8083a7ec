import type { OcdsObject } from './parts';

/** The extensions the reference declares: its releases carry `bids` and `planning.budget.project`. */
const EXTENSIONS = [
  'https://raw.githubusercontent.com/open-contracting-extensions/ocds_bid_extension/master/extension.json',
  'https://raw.githubusercontent.com/open-contracting-extensions/ocds_project_extension/master/extension.json',
];

/** The publisher of a feed page, which lists many buyers' releases (docs/ocds.md §Feeds). */
export const REGISTRY_PUBLISHER = 'Procurement Registry API 2.5';

/**
 * An OCDS 1.1 release package (docs/ocds.md §Packages). `publishedDate` is the latest release's `date`: an
 * on-demand package's date is that of the last change to its contents; a package of no releases takes `now`.
 */
export function releasePackage(uri: string, publisher: OcdsObject, releases: OcdsObject[], now: string) {
  const dates = releases.map((r) => r.date as string);
  return {
    uri,
    version: '1.1',
    extensions: EXTENSIONS,
    publisher,
    publishedDate: dates.length ? dates.reduce((a, b) => (Date.parse(a) >= Date.parse(b) ? a : b)) : now,
    releases,
  };
}
