import type { ResultShape, RouteDescription } from '../http/route';
import {
  createContract,
  patchChangeSchema,
  patchContract,
  postChangeSchema,
  putSignerInfoSchema,
} from '../domain/contract/contract.schema';
import { frameworkChangeSchema } from '../domain/framework/framework.schema';
import { FRAMEWORK_PROCEDURES } from '../domain/framework/procedures';
import { createMilestoneSchema, patchMilestoneSchema } from '../domain/agreement/milestone.schema';
import { patchQualificationSchema } from '../domain/qualification/qualification.schema';
import { answerQuestionSchema, createQuestionSchema } from '../domain/question/question.schema';
import { createSubmissionSchema, patchSubmissionSchema, submissionConfigSchema } from '../domain/submission/submission.schema';
import { documentPatchSchema } from '../domain/documents/document.schema';
import { tenderDocuments } from '../domain/tender/tender.routes';
import { contractDocuments } from '../domain/contract/contract.routes';
import { createTransferSchema } from '../domain/transfer/transfer-lifecycle';
import { OWNERSHIP, ownershipSchema } from '../domain/transfer/ownership';

type Access = RouteDescription['access'];

const frameworkProcedures = Object.values(FRAMEWORK_PROCEDURES);

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
const chronograph = (collection: string): RouteDescription => ({
  ...write('patch', `/api/2.5/${collection}/:id/chronograph`, `Runs the due checks of one of ${collection} now`, 'system', 'any-data'),
  tag: 'chronograph',
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
  { method: 'get', path: '/healthz', summary: 'The process is up', tag: 'operations', access: 'public', result: 'status' },
  {
    method: 'get',
    path: '/readyz',
    summary: 'The store (and Redis for workers) answer',
    tag: 'operations',
    access: 'public',
    result: 'status',
  },
  { method: 'get', path: '/metrics', summary: 'Prometheus metrics', tag: 'operations', access: 'public', result: 'metrics' },
  {
    method: 'get',
    path: '/api/2.5/constants',
    summary: 'Constants of the API',
    tag: 'operations',
    access: 'public',
    result: 'description',
  },
  {
    method: 'get',
    path: '/api/2.5/spore',
    summary: 'SPORE description of the API',
    tag: 'operations',
    access: 'public',
    result: 'description',
  },
  {
    method: 'head',
    path: '/api/2.5/spore',
    summary: 'Opens a session (SESSION cookie), as the reference client does',
    tag: 'operations',
    access: 'public',
    result: 'status',
  },
  { method: 'get', path: '/api/2.5/openapi.json', summary: 'This document', tag: 'operations', access: 'public', result: 'description' },

  chronograph('tenders'),
  chronograph('frameworks'),
  chronograph('agreements'),

  write(
    'post',
    '/api/2.5/frameworks',
    'Creates a framework (draft)',
    'broker',
    frameworkProcedures.map((p) => ({ data: p.schemas.create, config: p.schemas.config })),
  ),
  write(
    'patch',
    '/api/2.5/frameworks/:id',
    'Changes or activates a framework',
    'owner',
    frameworkProcedures.flatMap((p) => [{ data: p.schemas.patchDraft }, { data: p.schemas.patchActive }]),
  ),
  ...objectOf('frameworks'),
  feed('frameworks'),
  write('post', '/api/2.5/frameworks/:id/questions', 'Asks a question', 'broker', [{ data: createQuestionSchema }]),
  write('patch', '/api/2.5/frameworks/:id/questions/:questionId', 'Answers a question', 'owner', [{ data: answerQuestionSchema }]),
  read('/api/2.5/frameworks/:id/questions', 'Questions of a framework', 'list'),
  read('/api/2.5/frameworks/:id/questions/:questionId', 'One question'),
  ...objectDocuments('frameworks'),
  write('post', '/api/2.5/frameworks/:id/changes', "Changes an active framework's qualification period", 'owner', [
    { data: frameworkChangeSchema },
  ]),
  read('/api/2.5/frameworks/:id/changes', 'Changes of a framework', 'list'),
  read('/api/2.5/frameworks/:id/changes/:changeId', 'One change of a framework'),
  read('/api/2.5/frameworks/:id/submissions', "Feed of a framework's submissions (page links name the submissions feed)", 'feed'),
  read('/api/2.5/frameworks/:id/qualifications', "Feed of a framework's qualifications (page links name the qualifications feed)", 'feed'),

  write('post', '/api/2.5/submissions', 'Registers a submission (draft)', 'broker', [
    { data: createSubmissionSchema, config: submissionConfigSchema },
  ]),
  write('patch', '/api/2.5/submissions/:id', 'Changes or activates a submission', 'owner', [{ data: patchSubmissionSchema }]),
  ...objectOf('submissions'),
  feed('submissions'),
  ...objectDocuments('submissions'),

  write('patch', '/api/2.5/qualifications/:id', 'Decides a qualification (the framework owner)', 'owner', [
    { data: patchQualificationSchema },
  ]),
  ...objectOf('qualifications'),
  feed('qualifications'),
  ...objectDocuments('qualifications'),

  ...objectOf('agreements'),
  feed('agreements'),
  read('/api/2.5/agreements/:id/contracts', 'Contracts of an agreement', 'list'),
  read('/api/2.5/agreements/:id/contracts/:contractId', 'One contract of an agreement'),
  read('/api/2.5/agreements/:id/contracts/:contractId/milestones', "Milestones of an agreement's contract", 'list'),
  read('/api/2.5/agreements/:id/contracts/:contractId/milestones/:milestoneId', "One milestone of an agreement's contract"),
  write('post', '/api/2.5/agreements/:id/contracts/:contractId/milestones', 'Bans a supplier for 90 days (a ban milestone)', 'owner', [
    { data: createMilestoneSchema },
  ]),
  write(
    'patch',
    '/api/2.5/agreements/:id/contracts/:contractId/milestones/:milestoneId',
    "Ends a supplier's participation (activation milestone met)",
    'owner',
    [{ data: patchMilestoneSchema }],
  ),

  ...objectDocuments('tenders', tenderDocuments.documentOf),
  ...objectDocuments('tenders', tenderDocuments.documentOf, '/api/2.5/tenders/:id/cancellations/:cancellationId'),
  ...objectDocuments('tenders', tenderDocuments.documentOf, '/api/2.5/tenders/:id/bids/:bidId'),
  ...objectDocuments('tenders', tenderDocuments.documentOf, '/api/2.5/tenders/:id/awards/:awardId'),

  write('post', '/api/2.5/contracts', 'Creates a contract (the contracting system)', 'system', [{ data: createContract }]),
  write('patch', '/api/2.5/contracts/:id', 'Changes a contract', 'owner', [{ data: patchContract }]),
  ...ocdsObjectOf('contracts'),
  withOcds(feed('contracts')),
  {
    ...write('patch', '/api/2.5/contracts/:id/buyer/signer_info', "Names the buyer's signer (the contract owner)", 'owner', [
      { data: putSignerInfoSchema },
    ]),
    method: 'put',
  },
  {
    ...write('patch', '/api/2.5/contracts/:id/suppliers/signer_info', "Names the supplier's signer (the winning bid's owner)", 'owner', [
      { data: putSignerInfoSchema },
    ]),
    method: 'put',
  },
  write(
    'patch',
    '/api/2.5/contracts/:id/credentials',
    "A new owner token and transfer token of a contract (the tender's owner)",
    'owner',
    undefined,
  ),
  write('post', '/api/2.5/contracts/:id/changes', 'Proposes a change of an active contract', 'owner', [{ data: postChangeSchema }]),
  write('patch', '/api/2.5/contracts/:id/changes/:changeId', 'Edits or applies a pending contract change', 'owner', [
    { data: patchChangeSchema },
  ]),
  read('/api/2.5/contracts/:id/changes', 'Changes of a contract', 'list'),
  read('/api/2.5/contracts/:id/changes/:changeId', 'One change of a contract'),
  ...objectDocuments('contracts', contractDocuments.documentOf),

  ...objectDocuments('plans'),
  write('post', '/api/2.5/transfers', 'Creates a transfer: its id and the owner and transfer tokens it will hand over', 'broker', [
    { data: createTransferSchema },
  ]),
  { ...read('/api/2.5/transfers/:id', 'A transfer, with `usedFor` once used'), access: 'broker' },
  ...Object.values(OWNERSHIP).map((policy): RouteDescription => ({
    ...write('post', `/api/2.5/${policy.kind}/:id/ownership`, `Gives one of ${policy.kind} to the broker of a transfer`, 'broker', [
      { data: ownershipSchema },
    ]),
    result: 'object',
  })),
];
