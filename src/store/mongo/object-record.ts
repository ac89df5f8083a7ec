import type { Doc, Indexed, Kind, Stored } from '../port';

/** One object as stored in its kind's collection: the document plus the index fields feeds and checks query. */
export interface ObjectRecord extends Indexed {
  _id: string;
  rev: number;
  seq: number;
  doc: Doc;
}

export const toStored = (kind: Kind, record: ObjectRecord): Stored => ({
  kind,
  id: record._id,
  rev: record.rev,
  seq: record.seq,
  doc: record.doc,
});
