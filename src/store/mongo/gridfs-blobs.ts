import { GridFSBucket, ReadConcern, ReadPreference, type MongoClient } from 'mongodb';
import type { Blob } from '../port';

export interface Blobs {
  put(blob: Blob): Promise<void>;
  get(id: string): Promise<Blob | null>;
  has(id: string): Promise<boolean>;
  /** How many blobs are stored. */
  count(): Promise<number>;
  /** Up to `limit` ids of stored blobs after `after`, in order. */
  ids(after: string | undefined, limit: number): Promise<string[]>;
}

/**
 * Blobs in GridFS, one file per blob named by its id. The driver's GridFS takes no session, so reads are not
 * causal; they go to the primary with read concern "local" instead, which sees every write the primary has
 * acknowledged, and a put returns only once a majority has it, so a blob is readable from any node once stored.
 */
export function gridfsBlobs(client: MongoClient, dbName: string): Blobs {
  const bucket = new GridFSBucket(client.db(dbName, { readConcern: new ReadConcern('local') }), {
    bucketName: 'blobs',
    writeConcern: { w: 'majority' },
    readPreference: ReadPreference.primary,
  });

  return {
    async put(blob) {
      const upload = bucket.openUploadStream(blob.id, { metadata: { contentType: blob.contentType } });
      await new Promise<void>((resolve, reject) => {
        // `on`, not `once`: an error after the first (an abort racing a write) must not end the process.
        upload
          .once('finish', () => resolve())
          .on('error', reject)
          .end(blob.data);
      });
      // A put replaces: older files under the same id go once the new one is complete.
      for (const older of await bucket.find({ filename: blob.id, _id: { $ne: upload.id } }).toArray()) {
        await bucket.delete(older._id).catch(() => undefined);
      }
    },
    async get(id) {
      const [file] = await bucket.find({ filename: id }).sort({ uploadDate: -1, _id: -1 }).limit(1).toArray();
      if (!file) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of bucket.openDownloadStream(file._id)) chunks.push(chunk as Buffer);
      return { id, contentType: String(file.metadata?.contentType ?? 'application/octet-stream'), data: Buffer.concat(chunks) };
    },
    async has(id) {
      return (await bucket.find({ filename: id }).limit(1).toArray()).length > 0;
    },
    async count() {
      // Files, not names: a replaced blob counts twice only for the moment both files exist.
      return client.db(dbName).collection('blobs.files').countDocuments({}, { readPreference: ReadPreference.primary });
    },
    async ids(after, limit) {
      // A replaced blob may have two files for a moment (see put): each name once, from pages of names read in order.
      const ids: string[] = [];
      let from = after;
      while (ids.length < limit) {
        const files = await bucket
          .find(from === undefined ? {} : { filename: { $gt: from } }, { projection: { filename: 1 } })
          .sort({ filename: 1 })
          .limit(limit)
          .toArray();
        for (const { filename } of files) if (ids[ids.length - 1] !== filename && ids.length < limit) ids.push(filename);
        if (files.length < limit) break;
        from = files[files.length - 1].filename;
      }
      return ids;
    },
  };
}
