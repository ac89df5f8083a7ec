import type Database from 'better-sqlite3';
import type { FeedQuery, Listing, ListingQuery, Stored } from '../port';
import { listingFields, type KeptFeed, type KeptListings } from '../kept-listings';
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

const columnsByCounts = new Map<string, string>();
/** The listing's columns for `listed` listed fields of `fields` read in all, rendered once per pair of counts. */
function listingColumns(listed: number, fields: number): string {
  const counts = `${listed}/${fields}`;
  let columns = columnsByCounts.get(counts);
  if (!columns) {
    columns =
      `seq, CASE WHEN ${UNRESTRICTED} THEN CAST(${fieldsObject(listed)} AS BLOB) ` +
      `ELSE '{"config":{"restricted":' || (doc -> '$.config.restricted') || '},"data":' || ${fieldsObject(fields)} || '}' END`;
    columnsByCounts.set(counts, columns);
  }
  return columns;
}

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

/**
 * Feed statements prepared on `reader` by query shape; the columns' SQL depends on nothing else, values are bound.
 * With `kept`, a listing's entries read before come from memory by their positions
 * (docs/performance.md §Feed entries kept on SQLite).
 */
export function feedStatements(reader: Database.Database, kept?: KeptListings): FeedStatements {
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
  const atPositions = new Map<string, Database.Statement>();
  /** The entries at the positions `@seqs`, by the unique index objects_position. */
  const atPositionsStatement = (columns: string) => {
    let stmt = atPositions.get(columns);
    if (!stmt) {
      stmt = reader.prepare(`SELECT ${columns} FROM objects WHERE kind = @kind AND seq IN (SELECT value FROM json_each(@seqs))`);
      atPositions.set(columns, stmt);
    }
    return stmt;
  };
  /** A listing's columns and bound values: the listed fields, then the read ones not listed. */
  const listingRead = (q: ListingQuery) => {
    const params = feedParams(q);
    const fields = listedAndRead(q);
    fields.forEach((field, i) => {
      params[`key${i}`] = `,${JSON.stringify(field)}:`;
      params[`path${i}`] = `$.data."${field}"`;
    });
    return { columns: listingColumns(q.listed.length, fields.length), params };
  };
  const whole = (q: ListingQuery) => {
    const { columns, params } = listingRead(q);
    return (statement(q, columns).raw().all(params) as ListingRow[]).map(toListing);
  };
  /**
   * The page's positions (`seq` alone: every feed index holds it, so no row is visited), then the entries not kept
   * by their positions, in one read transaction: one snapshot for both.
   */
  const byPositions = reader.transaction((q: ListingQuery, keptFeed: KeptFeed): Listing[] => {
    const positions = statement(q, 'seq').pluck().all(feedParams(q)) as number[];
    const found = new Map<number, Listing>();
    const missing: number[] = [];
    for (const seq of positions) {
      const entry = keptFeed.lookup(seq);
      if (entry && !(entry instanceof Promise)) found.set(seq, entry);
      else missing.push(seq);
    }
    keptFeed.counted(positions.length - missing.length, positions.length);
    if (missing.length) {
      const { columns, params } = listingRead(q);
      for (const row of atPositionsStatement(columns)
        .raw()
        .all({ ...params, seqs: JSON.stringify(missing) }) as ListingRow[]) {
        const listing = toListing(row);
        found.set(listing.seq, listing);
        keptFeed.keep(listing);
      }
    }
    return positions.flatMap((seq) => found.get(seq) ?? []);
  });
  return {
    feed: (q) => (statement(q, 'kind, id, rev, seq, json(doc) AS doc').all(feedParams(q)) as Row[]).map(toStored),
    listing(q) {
      if (!kept) return whole(q);
      const keptFeed = kept.feed(q.kind, listingFields(q));
      return keptFeed.worthAsking() ? byPositions(q, keptFeed) : keptFeed.keptWhole(whole(q));
    },
  };
}
