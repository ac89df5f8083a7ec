import type Database from 'better-sqlite3';
import type { FeedQuery, Listing, ListingQuery, Stored } from '../port';
import { listedAndRead } from '../listing';
import { objectOf, toStored, type Row } from './statements';

/**
 * A listing row, raw (an array: measured 20-60 µs a page of 100 cheaper than an object): the seq, and the entry's
 * JSON as a BLOB for an unrestricted object or a doc's JSON as TEXT for a restricted one.
 */
type ListingRow = [seq: number, entry: Buffer | string];

const toListing = ([seq, entry]: ListingRow): Listing =>
  typeof entry === 'string' ? { seq, doc: JSON.parse(entry) } : { seq, json: entry };

/** The object of `count` data fields bound as @keyI (`,"name":`) and @pathI. */
const fieldsObject = (count: number) => objectOf(Array.from({ length: count }, (_, i) => ({ key: `@key${i}`, path: `@path${i}` })));

/** A document's framework, as the index objects_feed_by_framework (schema.ts) computes it. */
const FRAMEWORK_ID = "doc ->> '$.data.frameworkID'";

/** Absent, null, false and 0 (`->>` gives NULL, 0, 0): objects whose entry is their listed fields as stored. */
const UNRESTRICTED = "coalesce(doc ->> '$.config.restricted', 0) = 0";

const listingColumns = (listed: number, fields: number) =>
  `seq, CASE WHEN ${UNRESTRICTED} THEN CAST(${fieldsObject(listed)} AS BLOB) ` +
  `ELSE '{"config":{"restricted":' || (doc -> '$.config.restricted') || '},"data":' || ${fieldsObject(fields)} || '}' END`;

const feedParams = (q: FeedQuery): Record<string, unknown> => ({
  kind: q.kind,
  isTest: q.mode === 'test' ? 1 : 0,
  offset: q.offset,
  until: q.until,
  limit: q.limit,
  frameworkID: q.frameworkID,
});

/** Feed pages: whole documents, or listings built in SQL from the fields a page lists. */
export interface FeedStatements {
  feed(q: FeedQuery): Stored[];
  listing(q: ListingQuery): Listing[];
}

/** Feed statements prepared on `reader` by query shape; the columns' SQL depends on nothing else, values are bound. */
export function feedStatements(reader: Database.Database): FeedStatements {
  const prepared = new Map<string, Database.Statement>();
  const statement = (q: FeedQuery, columns: string) => {
    const key = `${q.mode}:${q.descending}:${q.offset !== undefined}:${q.until !== undefined}:${q.frameworkID !== undefined}:${columns}`;
    let stmt = prepared.get(key);
    if (!stmt) {
      const where = ['kind = @kind', 'is_public = 1'];
      if (q.mode !== 'all') where.push('is_test = @isTest');
      // The very expression of the index objects_feed_by_framework, so the listing reads only that framework's rows.
      if (q.frameworkID !== undefined) where.push(`${FRAMEWORK_ID} = @frameworkID`);
      if (q.offset !== undefined) where.push(q.descending ? 'seq < @offset' : 'seq > @offset');
      if (q.until !== undefined) where.push(q.descending ? 'seq > @until' : 'seq < @until');
      // `+ 0`: SQLite plans with the value of a bare bound LIMIT, so binding another (even the same) value made
      // every call prepare the statement again, 60-80 µs of a page.
      stmt = reader.prepare(
        `SELECT ${columns} FROM objects WHERE ${where.join(' AND ')} ORDER BY seq ${q.descending ? 'DESC' : 'ASC'} LIMIT @limit + 0`,
      );
      prepared.set(key, stmt);
    }
    return stmt;
  };
  return {
    feed: (q) => (statement(q, 'kind, id, rev, seq, json(doc) AS doc').all(feedParams(q)) as Row[]).map(toStored),
    listing(q) {
      const fields = listedAndRead(q);
      const params = feedParams(q);
      fields.forEach((field, i) => {
        params[`key${i}`] = `,${JSON.stringify(field)}:`;
        params[`path${i}`] = `$.data."${field}"`;
      });
      const rows = statement(q, listingColumns(q.listed.length, fields.length)).raw().all(params) as ListingRow[];
      return rows.map(toListing);
    },
  };
}
