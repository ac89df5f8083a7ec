import type { OcdsObject } from './parts';
import { releasePackage } from './release-package';

/** What a record reads of a release: its process, its id and its date. */
type Release = OcdsObject & { ocid: string; id: string; date: string };
type RecordPackage = OcdsObject & { records: { ocid: string; releases: Release[]; compiledRelease: OcdsObject }[] };

/**
 * An OCDS 1.1 record package (docs/ocds.md §Records): one record per contracting process (ocid) of the releases
 * given, oldest revision first. A revision whose release id repeats an earlier one (its `dateModified` did not move)
 * replaces it; releases are listed in date order; the compiled release is the latest one, tagged `compiled`.
 */
export function recordPackage(uri: string, publisher: OcdsObject, releases: OcdsObject[], now: string): RecordPackage {
  const byOcid = new Map<string, Map<string, Release>>();
  for (const release of releases as Release[]) {
    const kept = byOcid.get(release.ocid) ?? new Map<string, Release>();
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
