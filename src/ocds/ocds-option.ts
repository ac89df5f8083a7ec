/**
 * Whether a request asks for OCDS: the reference answers OCDS for any `opt_schema` that contains `ocds` in any
 * case (`ocds`, `OCDS-1.1`, `ocds-1.1`) and ignores every other value (docs/ocds.md §Asking for OCDS).
 */
export function wantsOcds(query: Record<string, string | string[] | undefined>): boolean {
  const value = query.opt_schema;
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return !!last && last.toLowerCase().includes('ocds');
}

/** `opt_schema=ocds-record` asks for a record package of every revision instead (docs/ocds.md §Records). */
export function wantsOcdsRecord(query: Record<string, string | string[] | undefined>): boolean {
  const value = query.opt_schema;
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return last?.toLowerCase() === 'ocds-record';
}

/** The reference's `OCID_PREFIX` (docs/ocds.md §Identifiers). */
export const OCID_PREFIX = 'ocds-be6bcu';

/** The contracting process of a tender, or of one of its lots (docs/ocds.md §Identifiers). */
export const ocidOf = (id: string, lotId?: string) => (lotId ? `${OCID_PREFIX}-${id}-${lotId}` : `${OCID_PREFIX}-${id}`);

/** A release's id names the revision: the released object's id (and lot), then its `dateModified` (docs/ocds.md §Identifiers). */
export const releaseIdOf = (base: string, dateModified: string) => `${base}-${dateModified}`;
