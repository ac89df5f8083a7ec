import type { StoredDoc, Listing, ListingQuery } from './port';
import { apiJson } from './api-json';

/** The `fields` that `data` has, in the order of `fields`. */
export function pickFields(data: StoredDoc, fields: readonly string[]): StoredDoc {
  const picked: StoredDoc = {};
  for (const field of fields) if (data[field] !== undefined) picked[field] = data[field];
  return picked;
}

/** The listed fields and then the read ones that are not listed. */
export const listedAndRead = (query: ListingQuery): string[] => [
  ...query.listed,
  ...query.reads.filter((field) => !query.listed.includes(field)),
];

/** The listing of one object from its document (or one holding at least `config.restricted` and the fields). */
export function listingOf(seq: number, doc: StoredDoc, query: ListingQuery): Listing {
  const restricted = doc.config?.restricted;
  const data: StoredDoc = doc.data ?? {};
  if (restricted === undefined || restricted === null || restricted === false || restricted === 0) {
    return { seq, json: Buffer.from(apiJson(pickFields(data, query.listed))) };
  }
  return { seq, doc: { config: { restricted }, data: pickFields(data, listedAndRead(query)) } };
}
