import type Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import type { RequestState } from '../../http/context';
import { agreementRoutes } from '../agreement/agreement-routes';
import { documentRoutes } from '../documents/document-routes';
import { derivativeDocuments } from '../core/restricted-access';
import { qualificationDerivative } from '../qualification/qualification.access';
import { qualificationRoutes } from '../qualification/qualification-routes';
import { questionRoutes } from '../question/question-routes';
import { submissionDerivative } from '../submission/submission.access';
import { submissionRoutes } from '../submission/submission-routes';
import { loadObject, type ObjectDoc } from '../core/objects';
import { frameworkDerivativeFeeds } from './framework-derivative-feeds';
import { frameworkRoutes } from './framework-routes';

/** Every router of the framework side (frameworks, questions, submissions, qualifications, agreements, their documents). */
export function frameworkSideRouters(deps: AppDeps): Router<RequestState>[] {
  return [
    frameworkRoutes(deps),
    frameworkDerivativeFeeds(deps),
    questionRoutes(deps),
    submissionRoutes(deps),
    qualificationRoutes(deps),
    agreementRoutes(deps),
    // The participant adds documents to its submission until it is deleted or complete (docs/frameworks.md §Submission documents).
    documentRoutes(deps, {
      ...derivativeDocuments(submissionDerivative),
      authority: async (_session, stored) => stored.doc as ObjectDoc,
      acceptsIn: () => ['draft', 'active'],
    }),
    // The procuring entity documents its decision while the qualification is pending (docs/frameworks.md §Qualifications).
    documentRoutes(deps, {
      ...derivativeDocuments(qualificationDerivative),
      authority: async (session, stored) => (await loadObject(session, 'frameworks', stored.doc.data.frameworkID)).doc,
      acceptsIn: () => ['pending'],
    }),
    // Frameworks are never restricted; the owner documents them while draft or active (docs/frameworks.md §Framework documents).
    documentRoutes(deps, {
      kind: 'frameworks',
      name: 'framework',
      view: (doc) => doc.data,
      authority: async (_session, stored) => stored.doc as ObjectDoc,
      acceptsIn: () => ['draft', 'active'],
    }),
  ];
}
