import type Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import type { RequestState } from '../../http/context';
import { agreementRoutes } from '../agreement/agreement-routes';
import { documentRoutes } from '../documents/document-routes';
import { derivativeDocuments } from '../core/restricted-access';
import { qualificationDerivative } from '../qualification/qualification.access';
import { qualificationRoutes } from '../qualification/qualification-routes';
import { submissionDerivative } from '../submission/submission.access';
import { submissionRoutes } from '../submission/submission-routes';
import { loadObject, type ObjectDoc } from '../core/objects';
import { frameworkDocuments } from './framework.routes';

/** The framework side's routers not yet on the route table (submissions, qualifications, agreements, documents). */
export function frameworkSideRouters(deps: AppDeps): Router<RequestState>[] {
  return [
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
    documentRoutes(deps, frameworkDocuments),
  ];
}
