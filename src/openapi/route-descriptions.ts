import type { ResultShape, RouteDescription } from '../http/route';
import { answerQuestionSchema, createTenderQuestionSchema } from '../domain/question/question.schema';
import { patchCancellationSchema, postCancellationSchema } from '../domain/tender/cancellations/cancellation.schema';
import { criteriaListSchema } from '../domain/tender/criteria';
import { TENDER_PROCEDURES } from '../domain/tender/procedures';
import { lotPatchSchema, lotSchema } from '../domain/tender/tender.schema';
import { documentPatchSchema } from '../domain/documents/document.schema';
import { tenderDocuments } from '../domain/tender/tender.routes';
import { auctionLotResults, auctionResults, auctionUrls, lotAuctionUrls } from '../domain/tender/auction/auction.schema';

type Access = RouteDescription['access'];

const tenderProcedures = Object.values(TENDER_PROCEDURES);

/** The tag of an API path: its collection (`/api/2.5/frameworks/:id/questions` → `frameworks`). */
const tagOf = (path: string) => path.split('/')[3];

const feed = (collection: string): RouteDescription => ({
  method: 'get',
  path: `/api/2.5/${collection}`,
  summary: `Feed of ${collection}, paged by next_page.offset`,
  tag: collection,
  access: 'public',
  result: 'feed',
});
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
/** Complaints are off for every tender procedure (docs/tenders.md §Complaints): empty lists, a POST always refused. */
const complaints = (path: string, of: string): RouteDescription[] => [
  {
    ...write('post', path, `Refuses a complaint of ${of}: complaints are off`, 'broker', 'any-data'),
    result: 'complaintsOff',
    writes: false,
  },
  read(path, `Complaints of ${of}: always empty`, 'list'),
  read(`${path}/:complaintId`, `One complaint of ${of}: always 404`),
];
/** An object, and its versions (docs/platform.md §Revision history). */
const objectOf = (collection: string): RouteDescription[] => [
  read(`/api/2.5/${collection}/:id`, `One of ${collection}`),
  {
    ...read(
      `/api/2.5/${collection}/:id/historical`,
      `One of ${collection} as it was at a version (X-Revision-N, X-Previous-Hash answered)`,
    ),
    headers: [
      { name: 'X-Revision-N', description: 'the version, from 1 (as created); the current one without it' },
      { name: 'X-Revision-Date', description: 'an ISO 8601 date-time: the version current then' },
      { name: 'X-Revision-Hash', description: "the version's hash, as answered: 404 if it names another" },
    ],
  },
];

/** A read that also answers OCDS (`opt_schema`): tenders, contracts and plans, one by one and in their feeds. */
const withOcds = (route: RouteDescription): RouteDescription => ({
  ...route,
  result: route.result === 'feed' ? 'feedOrOcds' : 'objectOrOcds',
});

/** An object that also answers OCDS, and its versions. */
const ocdsObjectOf = (collection: string): RouteDescription[] => {
  const [object, historical] = objectOf(collection);
  return [withOcds(object), historical];
};

/** Every route of the app; `test/ecosystem/openapi.test.ts` fails when the router table and this list differ. */
export const ROUTE_DESCRIPTIONS: RouteDescription[] = [
  write(
    'post',
    '/api/2.5/tenders',
    'Creates a tender (draft)',
    'broker',
    tenderProcedures.map((p) => ({ data: p.schemas.create, config: p.config })),
  ),
  write(
    'patch',
    '/api/2.5/tenders/:id',
    'Changes or activates a tender',
    'owner',
    tenderProcedures.map((p) => ({ data: p.schemas.patch })),
  ),
  write('post', '/api/2.5/tenders/:id/criteria', 'Adds criteria to a draft tender', 'owner', [{ data: criteriaListSchema }]),
  write('post', '/api/2.5/tenders/:id/lots', 'Adds a lot to a tender', 'owner', [{ data: lotSchema }]),
  write('patch', '/api/2.5/tenders/:id/lots/:lotId', 'Changes a lot of a tender', 'owner', [{ data: lotPatchSchema }]),
  write('delete', '/api/2.5/tenders/:id/lots/:lotId', 'Deletes a lot nothing names', 'owner', undefined),
  read('/api/2.5/tenders/:id/lots', 'Lots of a tender', 'list'),
  read('/api/2.5/tenders/:id/lots/:lotId', 'One lot of a tender'),
  write('post', '/api/2.5/tenders/:id/questions', 'Asks a question of a tender', 'broker', [{ data: createTenderQuestionSchema }]),
  write('patch', '/api/2.5/tenders/:id/questions/:questionId', 'Answers a tender question', 'owner', [{ data: answerQuestionSchema }]),
  read('/api/2.5/tenders/:id/questions', 'Questions of a tender', 'list'),
  read('/api/2.5/tenders/:id/questions/:questionId', 'One question of a tender'),
  ...ocdsObjectOf('tenders'),
  withOcds(feed('tenders')),
  write('post', '/api/2.5/tenders/:id/cancellations', 'Starts a cancellation of a tender or a lot (draft)', 'owner', [
    { data: postCancellationSchema },
  ]),
  write(
    'patch',
    '/api/2.5/tenders/:id/cancellations/:cancellationId',
    'Changes a draft cancellation, makes it take effect or withdraws it',
    'owner',
    [{ data: patchCancellationSchema }],
  ),
  read('/api/2.5/tenders/:id/cancellations', 'Cancellations of a tender', 'list'),
  read('/api/2.5/tenders/:id/cancellations/:cancellationId', 'One cancellation of a tender'),
  ...objectDocuments('tenders', tenderDocuments.documentOf, '/api/2.5/tenders/:id/cancellations/:cancellationId'),
  ...complaints('/api/2.5/tenders/:id/complaints', 'a tender'),
  ...complaints('/api/2.5/tenders/:id/awards/:hostId/complaints', 'an award'),
  ...complaints('/api/2.5/tenders/:id/cancellations/:hostId/complaints', 'a cancellation'),
  write(
    'post',
    '/api/2.5/tenders/:id/bids',
    "Places a bid (answers the bid's own token)",
    'broker',
    tenderProcedures.map((p) => ({ data: p.bids.schemas.create })),
  ),
  write(
    'patch',
    '/api/2.5/tenders/:id/bids/:bidId',
    'Changes or submits a bid (its own token)',
    'owner',
    tenderProcedures.map((p) => ({ data: p.bids.schemas.patch })),
  ),
  {
    method: 'delete',
    path: '/api/2.5/tenders/:id/bids/:bidId',
    summary: 'Withdraws a bid while tendering lasts',
    tag: 'tenders',
    access: 'owner',
    result: 'object',
    writes: true,
  },
  read('/api/2.5/tenders/:id/bids', 'Bids of a tender, once the auction is over', 'list'),
  read('/api/2.5/tenders/:id/bids/:bidId', 'One bid (its owner always; others once the auction is over)'),
  ...objectDocuments('tenders', tenderDocuments.documentOf, '/api/2.5/tenders/:id/bids/:bidId'),
  { ...read('/api/2.5/tenders/:id/auction', 'The auction view of a tender in active.auction'), access: 'system' },
  {
    ...write('patch', '/api/2.5/tenders/:id/auction', 'Sets the auction and participation urls', 'system', [{ data: auctionUrls }]),
    result: 'object',
  },
  {
    ...write('patch', '/api/2.5/tenders/:id/auction/:lotId', "Sets a lot's auction and participation urls", 'system', [
      { data: lotAuctionUrls },
    ]),
    result: 'object',
  },
  {
    ...write('post', '/api/2.5/tenders/:id/auction', 'Reports the auction results', 'system', [{ data: auctionResults }]),
    result: 'object',
  },
  {
    ...write('post', '/api/2.5/tenders/:id/auction/:lotId', "Reports a lot's auction results", 'system', [{ data: auctionLotResults }]),
    result: 'object',
  },
  read('/api/2.5/tenders/:id/awards', 'Awards of a tender', 'list'),
  read('/api/2.5/tenders/:id/awards/:awardId', 'One award of a tender'),
  write(
    'patch',
    '/api/2.5/tenders/:id/awards/:awardId',
    'Decides an award (the tender owner)',
    'owner',
    tenderProcedures.map((p) => ({ data: p.awards.schema })),
  ),
  ...objectDocuments('tenders', tenderDocuments.documentOf, '/api/2.5/tenders/:id/awards/:awardId'),
  read('/api/2.5/tenders/:id/contracts', "The tender's copies of its contracts", 'list'),
  read('/api/2.5/tenders/:id/contracts/:contractId', "The tender's copy of one contract"),
  {
    ...write('patch', '/api/2.5/tenders/:id/contracts/:contractId', 'Refused: 403 update is forbidden for contract', 'broker', 'any-data'),
    result: 'retired',
    writes: false,
  },
  {
    ...write(
      'post',
      '/api/2.5/tenders/:id/contracts/:contractId/documents',
      'Refused: 403 add is forbidden for contract document',
      'broker',
      'file',
    ),
    result: 'retired',
    writes: false,
  },
  {
    ...read('/api/2.5/tenders/:id/extract_credentials', "The tender's owner and owner token hash (the contracting system)"),
    access: 'system',
  },
];
