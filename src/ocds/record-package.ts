import type { Doc } from '../domain/core/object-doc';
import { releasePackage } from './release-package';

/**
 * An OCDS 1.1 record package (docs/ocds.md §Records): one record per contracting process (ocid) of the releases
 * given, oldest revision first. A revision whose release id repeats an earlier one (its `dateModified` did not move)
 * replaces it; releases are listed in date order; the compiled release is the latest one, tagged `compiled`.
 */
export function recordPackage(uri: string, publisher: Doc, releases: Doc[], now: string): Doc {
  const byOcid = new Map<string, Map<string, Doc>>();
  for (const release of releases) {
    const kept = byOcid.get(release.ocid) ?? new Map<string, Doc>();
    kept.delete(release.id);
    kept.set(release.id, release);
    byOcid.set(release.ocid, kept);
  }
  const records = [...byOcid].map(([ocid, kept]) => {
    const list = [...kept.values()].sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
    const latest = list[list.length - 1];
    return { ocid, releases: list, compiledRelease: { ...latest, id: `${ocid}-${latest.date}`, tag: ['compiled'] } };
  });
  const { releases: _listed, ...rest } = releasePackage(uri, publisher, releases, now);
  return { ...rest, records };
}
