import type { Viewer } from '../../http/auth';
import type { ApiError } from '../../http/errors';
import type { RestrictedMode } from '../../config';
import type { Doc, Kind, StoreSession, Stored } from '../../store/port';
import type { ObjectDoc } from './objects';

/** An object kind that holds documents: who reads them, who uploads, and in which statuses. */
export interface DocumentHost {
  kind: Kind;
  /** The kind's word in the reference's messages (`… in current (draft) tender status`). */
  name: string;
  /** The object's data as this reader may see it (its hiding rules applied), or a 403 for a reader with no access. */
  view(doc: ObjectDoc, viewer: Viewer, mode: RestrictedMode): Doc;
  /** The object whose owner token authorizes uploads: the object itself, or its framework. */
  authority(session: StoreSession, stored: Stored): Promise<ObjectDoc>;
  /** Statuses in which documents may be added, changed or replaced; the reference's message names the current one. */
  acceptsIn(data: Doc): string[];
  /**
   * What a document write (a new document, a new version, new metadata) also changes in the object (its
   * procedure's rules), or refuses; the object as it is saved.
   */
  withDocumentAdded?(session: StoreSession, doc: ObjectDoc, now: Date): Promise<ObjectDoc>;
  /** The kind's own refusal in other statuses, where it is not the common 403 `Can't add document in current (…) status`. */
  refusal?(status: string): ApiError;
  /** What a document may say it is about (`documentOf`), where the kind's documents have it. */
  documentOf?: readonly string[];
  /** The `documentType` values, where they are not the common list (`documentPatchSchema`). */
  documentTypes?: readonly string[];
}
