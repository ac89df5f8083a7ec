import type { RouteDeps } from '../../app-deps';
import { bodyConfig, bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { absoluteUrl, created } from '../../http/render';
import { route, type MountableRoute } from '../../http/route';
import { actorOf } from '../core/actor';
import type { DocumentHost } from '../core/document-host';
import { loadObject, type StoredObject } from '../core/objects';
import { ownerOf } from '../core/owner';
import { derivativeDocuments, derivativeReadRoutes } from '../core/restricted-access';
import { submissionDerivative } from './submission.access';
import type { SubmissionDoc } from './submission.types';
import { createSubmission, patchSubmission } from './submission.lifecycle';
import { createSubmissionSchema, patchSubmissionSchema, submissionConfigSchema } from './submission.schema';

/** The participant adds documents to its submission until it is deleted or complete (docs/frameworks.md §Submission documents). */
export const submissionDocuments: DocumentHost = {
  ...derivativeDocuments(submissionDerivative),
  authority: async (_session, stored) => stored.doc as SubmissionDoc,
  acceptsIn: () => ['draft', 'active'],
  // The participant may hide a document from everyone but itself and the framework's owner (docs/platform.md §Document fields).
  fields: { confidentiality: 'buyerOnly', language: 'uk' },
  confidentialReaders: async (session, stored) => {
    const submission = stored.doc as SubmissionDoc;
    return [submission, (await loadObject(session, 'frameworks', submission.data.frameworkID)).doc];
  },
};

const loadSubmission = (ctx: Ctx): Promise<StoredObject<SubmissionDoc>> =>
  loadObject<SubmissionDoc>(ctx.state.session, 'submissions', ctx.params.id);

/** Endpoints 12-15. */
export function submissionRoutes(deps: RouteDeps): MountableRoute[] {
  const { publicBaseUrl } = deps.config;
  return [
    route({
      method: 'post',
      path: '/api/2.5/submissions',
      summary: 'Registers a submission (draft)',
      access: 'broker',
      body: [{ data: createSubmissionSchema, config: submissionConfigSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx) => {
        const body = { data: bodyData(ctx), config: bodyConfig(ctx) };
        const { doc, access } = await createSubmission(ctx.state.session, body, actorOf(ctx));
        const location = absoluteUrl(ctx, publicBaseUrl, `/api/2.5/submissions/${doc.data.id}`);
        created(ctx, location, { data: doc.data, access, config: doc.config });
      },
    }),
    route({
      method: 'patch',
      path: '/api/2.5/submissions/:id',
      summary: 'Changes or activates a submission',
      load: loadSubmission,
      access: ownerOf('the submission', (stored: StoredObject<SubmissionDoc>) => stored.doc),
      body: [{ data: patchSubmissionSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, stored) => {
        const doc = await patchSubmission(ctx.state.session, stored, bodyData(ctx), ctx.state.now);
        ctx.body = { data: doc.data, config: doc.config };
      },
    }),
    ...derivativeReadRoutes(submissionDerivative, deps.config),
  ];
}
