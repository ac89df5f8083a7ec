import { yieldLoop, type SplicedJson, type SplicedText } from '../http/spliced-json';
import type { OcdsObject } from './parts';
import { later, packageMembers, type PackageHead } from './release-package';

/** What a record reads of a release: its process, its id and its date. */
type Release = OcdsObject & { ocid: string; id: string; date: string };
/** A release kept in its record: its date (milliseconds) and its text. */
type Kept = { date: number; piece: Buffer };

/**
 * An OCDS 1.1 record package as JSON text (docs/ocds.md §Records): one record per contracting process (ocid) of
 * `releases`, given oldest revision first, written release by release into `json`. A revision whose release
 * id repeats an earlier one (its `dateModified` did not move) replaces it; releases are listed in date order; the
 * compiled release is the latest one, tagged `compiled`.
 */
export async function recordPackageJson(json: SplicedJson, head: PackageHead, releases: AsyncIterable<OcdsObject>): Promise<SplicedText> {
  const byOcid = new Map<string, Map<string, Kept>>();
  const latestOf = new Map<string, Release>();
  let latest: string | undefined;
  for await (const one of releases) {
    const release = one as Release;
    const kept = byOcid.get(release.ocid) ?? new Map<string, Kept>();
    const replaced = kept.get(release.id);
    if (replaced) json.drop(replaced.piece);
    kept.delete(release.id);
    kept.set(release.id, { date: Date.parse(release.date), piece: json.render(release, 4) });
    byOcid.set(release.ocid, kept);
    const last = latestOf.get(release.ocid);
    if (!last || Date.parse(release.date) >= Date.parse(last.date)) latestOf.set(release.ocid, release);
    latest = later(latest, release.date);
  }
  // One record at a time, the loop given back after each: a record lists a release per version.
  const records = [];
  for (const [ocid, kept] of byOcid) {
    const list = [...kept.values()].sort((a, b) => a.date - b.date);
    const last = latestOf.get(ocid)!;
    const compiled = json.render({ ...last, id: `${ocid}-${last.date}`, tag: ['compiled'] }, 3);
    records.push({
      ocid,
      releases: json.list(
        list.map((entry) => entry.piece),
        3,
      ),
      compiledRelease: json.value(compiled),
    });
    await yieldLoop();
  }
  return json.text({ ...packageMembers(head, latest), records });
}
