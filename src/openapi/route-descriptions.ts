import type { ResultShape, RouteDescription } from '../http/route';
import { documentPatchSchema } from '../domain/documents/document.schema';
import { tenderDocuments } from '../domain/tender/tender.routes';

type Access = RouteDescription['access'];

/** The tag of an API path: its collection (`/api/2.5/frameworks/:id/questions` → `frameworks`). */
const tagOf = (path: string) => path.split('/')[3];

const read = (path: string, summary: string, result: ResultShape = 'object'): RouteDescription => ({
  method: 'get',
  path,
  summary,
  tag: tagOf(path),
  access: 'public',
  result,
});
/** A POST answers 201 with the created object, a PATCH, PUT or DELETE 200 with the changed one; all compare revisions. */
const write = (
  method: 'post' | 'patch' | 'put' | 'delete',
  path: string,
  summary: string,
  access: Access,
  body: RouteDescription['body'],
): RouteDescription => ({
  method,
  path,
  summary,
  tag: tagOf(path),
  access,
  body,
  result: method === 'post' ? 'created' : 'object',
  writes: true,
});
/** The documents of an object (`holder` defaults to `/api/2.5/{collection}/:id`) or of a sub-resource of it. */
const documents = (collection: string, holder = `/api/2.5/${collection}/:id`): RouteDescription[] => [
  write('post', `${holder}/documents`, 'Uploads a document as the multipart field `file`', 'owner', 'file'),
  read(`${holder}/documents`, 'Documents of the object', 'list'),
  {
    ...read(`${holder}/documents/:documentId`, 'One document, or its bytes with `download`', 'document'),
    query: [{ name: 'download', description: 'the key from the document url: answers the file itself' }],
  },
];
/**
 * An object's documents (or a sub-resource's: `holder`), served by the one document module: also new versions (PUT) and metadata (PATCH, with
 * `documentOf` as the kind's host allows it), every version with `?all` (docs/platform.md §Document versions).
 */
const objectDocuments = (collection: string, documentOf?: readonly string[], holder = `/api/2.5/${collection}/:id`): RouteDescription[] => {
  const [post, list, one] = documents(collection, holder);
  const path = `${holder}/documents/:documentId`;
  return [
    post,
    write('put', path, 'Uploads a new version of a document as the multipart field `file`', 'owner', 'file'),
    write('patch', path, "Changes the latest version's metadata", 'owner', [{ data: documentPatchSchema(documentOf) }]),
    {
      ...list,
      summary: 'Documents of the object: the latest version of each',
      query: [{ name: 'all', description: 'any value: every version of every document' }],
    },
    { ...one, summary: 'One document (its earlier versions in previousVersions), or its bytes with `download`' },
  ];
};
/** Every route of the app; `test/ecosystem/openapi.test.ts` fails when the router table and this list differ. */
export const ROUTE_DESCRIPTIONS: RouteDescription[] = [
  ...objectDocuments('tenders', tenderDocuments.documentOf, '/api/2.5/tenders/:id/cancellations/:cancellationId'),
  ...objectDocuments('tenders', tenderDocuments.documentOf, '/api/2.5/tenders/:id/bids/:bidId'),
  ...objectDocuments('tenders', tenderDocuments.documentOf, '/api/2.5/tenders/:id/awards/:awardId'),
];
