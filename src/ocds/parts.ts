/**
 * The small OCDS building blocks every release uses, from a view's parts (docs/ocds.md §What maps to what). A
 * view's hidden parts come in as `Приховано`; where the OCDS schema wants a URI or a number such a value is
 * left out, as it would not validate (docs/ocds.md §Hidden parts).
 */

/**
 * A part of the view a release is made from: any member may be missing or hidden (a text in place of its value),
 * so each is taken as it comes, and checked only where its kind matters.
 */
export type ViewPart = { readonly [member: string]: unknown };
/** An object of a release, as made here. */
export type OcdsObject = Record<string, unknown>;
/** The releases of one view, made when asked for (a tender's plan read once for all the views of an answer). */
export type ReleasesOf = (view: ViewPart) => Promise<Iterable<OcdsObject>>;

/** The view's part under a member, and the parts listed under one (the list as the view has it, none when absent). */
export const partOf = (part: unknown) => part as ViewPart | undefined;
export const partsOf = (list: unknown): ViewPart[] => (list ?? []) as ViewPart[];

const ABSOLUTE_URI = /^[a-z][a-z0-9+.-]*:[^\s]*$/i;

/** `value` when it is an absolute URI, else nothing. */
export const uriOf = (value: unknown): string | undefined => (typeof value === 'string' && ABSOLUTE_URI.test(value) ? value : undefined);

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** OCDS `Value`: the currency, and the amount unless it is 0 or absent (the reference's `convert_value`). */
export function valueOf(value: ViewPart | undefined): OcdsObject | undefined {
  if (!value) return undefined;
  return { currency: value.currency, ...(value.amount ? { amount: numberOf(value.amount) } : {}) };
}

/** OCDS `Period`: the dates only (Prozorro periods also carry `clarificationsUntil`, `shouldStartAfter`...). */
export const periodOf = (period: ViewPart | undefined): OcdsObject | undefined =>
  period && { startDate: period.startDate, endDate: period.endDate };

const classificationOf = (c: ViewPart | undefined): OcdsObject | undefined =>
  c && { scheme: c.scheme, id: c.id, description: c.description, uri: uriOf(c.uri) };

/** OCDS `Item`s, all or those of one lot. */
export function itemsOf(items: readonly ViewPart[] | undefined, lotId?: string): OcdsObject[] {
  return (items ?? [])
    .filter((item) => !lotId || item.relatedLot === lotId)
    .map((item, n) => ({
      id: item.id ?? String(n),
      description: item.description,
      classification: classificationOf(partOf(item.classification)),
      additionalClassifications: partsOf(item.additionalClassifications).map(classificationOf),
      quantity: numberOf(item.quantity),
      unit: partOf(item.unit)?.name ? { name: partOf(item.unit)?.name } : undefined,
    }));
}

const MILESTONE_STATUSES: unknown[] = ['scheduled', 'met', 'notMet', 'partiallyMet'];

/** OCDS `Milestone`s, those of the tender and of one lot; a status outside OCDS's closed list is left out. */
export function milestonesOf(milestones: readonly ViewPart[] | undefined, lotId?: string): OcdsObject[] {
  return (milestones ?? [])
    .filter((m) => !m.relatedLot || m.relatedLot === lotId)
    .map((m) => ({
      id: m.id,
      title: m.title,
      description: m.description,
      type: m.type,
      code: m.code,
      dueDate: m.dueDate,
      dateMet: m.dateMet,
      dateModified: m.dateModified,
      status: MILESTONE_STATUSES.includes(m.status) ? m.status : undefined,
    }));
}

/**
 * OCDS `Document`s: the latest version of each, without `buyerOnly` ones; for a lot's release only the tender's,
 * that lot's and its items' documents (the reference's `convert_documents`).
 */
export function documentsOf(documents: readonly ViewPart[] | undefined, lot?: { id: string; itemIds: string[] }): OcdsObject[] {
  const latest = new Map<unknown, OcdsObject>();
  for (const d of documents ?? []) {
    if (d.confidentiality === 'buyerOnly') continue;
    if (lot && d.documentOf === 'lot' && d.relatedItem !== lot.id) continue;
    if (lot && d.documentOf === 'item' && !lot.itemIds.includes(d.relatedItem as string)) continue;
    const kept = latest.get(d.id);
    // Dates are ISO texts with one offset (docs/platform.md §Time and dates): compared as texts.
    if (kept && (kept.dateModified as string) >= (d.dateModified as string)) continue;
    latest.set(d.id, {
      id: d.id,
      documentType: d.documentType,
      title: d.title,
      description: d.description,
      url: uriOf(d.url),
      datePublished: d.datePublished,
      dateModified: d.dateModified,
      format: d.format,
      language: d.language,
    });
  }
  return [...latest.values()];
}
