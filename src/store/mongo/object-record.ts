import type { StoredDoc, Indexed, Kind, Revision, Stored } from '../port';

/**
 * One object as stored in its kind's collection: the document plus the index fields feeds and checks query, and its
 * revisions (docs/architecture.md §Revision history), kept in the same document so that one write stores a change
 * and its revision together, and left out of every read but the history's (`WITHOUT_REVISIONS`).
 */
export interface ObjectRecord extends Indexed {
  _id: string;
  rev: number;
  seq: number;
  doc: StoredDoc;
  revisions?: Revision[];
}

/** The projection of every read of a whole record: the revisions stay on the server. */
export const WITHOUT_REVISIONS = { revisions: 0 } as const;

export const toStored = (kind: Kind, record: ObjectRecord): Stored => ({
  kind,
  id: record._id,
  rev: record.rev,
  seq: record.seq,
  doc: record.doc,
});
