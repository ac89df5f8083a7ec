export { withoutConfidentialUrls } from './document-fields';
export { documentsOf, findDocument, type DocumentHolder, type GivenDocument } from './document-versions';
export { documentReadRoutes, documentWriteRoutes } from './document.routes';
export { TENDER_DOCUMENT_FIELDS, TENDER_DOCUMENT_TYPES, TENDER_SUB_RESOURCE_DOCUMENT_FIELDS, documentPatchSchema } from './document.schema';
export { bodyDocuments, type BodyDocuments } from './body-documents';
export { bodyDocumentSchema } from './document.schema';
