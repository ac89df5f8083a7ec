import type { Viewer } from '../../http/auth';
import type { ApiError } from '../../http/errors';
import type { RestrictedMode } from '../../config';
import type { Kind, StoreSession, Stored } from '../../store/port';
import type { ObjectDoc } from './objects';
import type { HeldVersion } from './shapes';

/**
 * What a holder's documents carry beyond their file, as the reference's document models of the holder set and
 * check them (docs/platform.md §Document fields). A member left out is a field these documents do not have.
 */
export interface DocumentFields {
  /** `documentOf` an upload gets (the reference's default). */
  documentOf?: string;
  /**
   * `confidentiality`: an upload is `public`; `public` where every document must stay so (`buyerOnly` refused),
   * `buyerOnly` where the owner may hide one from other readers.
   */
  confidentiality?: 'public' | 'buyerOnly';
  /**
   * `language` an upload records (the reference's default): every kind's documents but a contract's, whose model
   * sets none (docs/platform.md §Document fields).
   */
  language?: 'uk';
  /** `author` an upload records: the role of the only writer the holder's routes let upload. */
  author?: string;
  /** For a `documentOf` value, the list of the holder's object a `relatedItem` must name (`lot: 'lots'`). */
  related?: Readonly<Record<string, string>>;
}

/** An object kind that holds documents: who reads them, who uploads, and in which statuses. */
export interface DocumentHost {
  kind: Kind;
  /** The kind's word in the reference's messages (`… in current (draft) tender status`). */
  name: string;
  /** The object's data as this reader may see it (its hiding rules applied), or a 403 for a reader with no access. */
  view(doc: ObjectDoc, viewer: Viewer, mode: RestrictedMode): { documents?: HeldVersion[] };
  /** The object whose owner token authorizes uploads: the object itself, or its framework. */
  authority(session: StoreSession, stored: Stored): Promise<ObjectDoc>;
  /** Statuses in which documents may be added, changed or replaced; the reference's message names the current one. */
  acceptsIn(data: object): string[];
  /**
   * What a document write (a new document, a new version, new metadata) also changes in the object (its
   * procedure's rules), or refuses; the object as it is saved.
   */
  withDocumentAdded?(session: StoreSession, doc: ObjectDoc, now: Date): Promise<ObjectDoc>;
  /** The kind's own refusal in other statuses, where it is not the common 403 `Can't add document in current (…) status`. */
  refusal?(status: string): ApiError;
  /** What a document may say it is about (`documentOf`), where the kind's documents have it. */
  documentOf?: readonly string[];
  /** The document fields beyond the file, where the kind's documents have them. */
  fields?: DocumentFields;
  /**
   * The objects whose owner (with the token) reads `buyerOnly` documents whole and downloads them, where the
   * kind's documents may be `buyerOnly` (docs/platform.md §Document fields).
   */
  confidentialReaders?(session: StoreSession, stored: Stored): Promise<ObjectDoc[]>;
  /** The `documentType` values, where they are not the common list (`documentPatchSchema`). */
  documentTypes?: readonly string[];
}
