import type { DocserviceConfig } from '../../config';
import type { DocumentFields } from '../core/document-host';
import { newId } from '../core/ids';
import type { DocumentVersion } from '../core/shapes';
import { documentServiceKey } from './docservice';
import { checkDocumentFields, uploadFields } from './document-fields';
import { registeredDocument, type GivenDocument } from './document-versions';

/** Where documents given inside a body are registered: the document service, and their list's stored address. */
export interface BodyDocuments {
  docservice: DocserviceConfig | null;
  /** The stored address of the list the documents join (`…/documents`, the registry's own base). */
  listUrl: string;
  fields: DocumentFields;
  author: string;
  /** What a document's `relatedItem` may name (its lots, its items), where the documents may point at its parts. */
  parent?: Record<string, unknown>;
}

/**
 * Documents a resource's POST body carries (the reference's `validate_data_documents`): each must name the document
 * service's signed url, as a JSON document POST does (docs/platform.md §Document service), and is recorded as one,
 * under the `id` the body gave it, if any.
 */
export function bodyDocuments(
  given: GivenDocument[],
  { docservice, listUrl, fields, author, parent }: BodyDocuments,
  now: Date,
): DocumentVersion[] {
  return given.map((one) => {
    const key = documentServiceKey(docservice, one.url, one.hash);
    const id = typeof one.id === 'string' ? one.id : newId();
    const document: DocumentVersion = { ...uploadFields(fields), author, ...registeredDocument(one, key, listUrl, now, id) };
    checkDocumentFields(fields, document, parent);
    return document;
  });
}
