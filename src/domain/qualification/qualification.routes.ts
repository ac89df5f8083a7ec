import type { RouteDeps } from '../../app-deps';
import { bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { route, type MountableRoute } from '../../http/route';
import type { DocumentHost } from '../core/document-host';
import { loadObject } from '../core/objects';
import type { FrameworkDoc } from '../framework/framework.types';
import { ownerOf } from '../core/owner';
import { derivativeDocuments, derivativeReadRoutes } from '../core/restricted-access';
import { qualificationDerivative } from './qualification.access';
import { decideQualification, type DecidedQualification } from './qualification.lifecycle';
import { patchQualificationSchema } from './qualification.schema';
import type { QualificationDoc } from './qualification.types';

/** The procuring entity documents its decision while the qualification is pending (docs/frameworks.md §Qualifications). */
export const qualificationDocuments: DocumentHost = {
  ...derivativeDocuments(qualificationDerivative),
  authority: async (session, stored) => (await loadObject(session, 'frameworks', (stored.doc as QualificationDoc).data.frameworkID)).doc,
  acceptsIn: () => ['pending'],
  fields: { language: 'uk' },
};

/** The qualification the path names, and its framework, whose owner decides it. */
async function loadQualification(ctx: Ctx): Promise<DecidedQualification> {
  const { session } = ctx.state;
  const stored = await loadObject<QualificationDoc>(session, 'qualifications', ctx.params.id);
  return { stored, framework: await loadObject<FrameworkDoc>(session, 'frameworks', stored.doc.data.frameworkID) };
}

/** Endpoints 16-18. */
export function qualificationRoutes(deps: RouteDeps): MountableRoute[] {
  return [
    route({
      method: 'patch',
      path: '/api/2.5/qualifications/:id',
      summary: 'Decides a qualification (the framework owner)',
      load: loadQualification,
      // The framework owner's token decides qualifications (docs/frameworks.md §Qualifications).
      access: ownerOf('the framework', (loaded: DecidedQualification) => loaded.framework.doc),
      body: [{ data: patchQualificationSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        const doc = await decideQualification(ctx.state.session, loaded, bodyData(ctx), ctx.state.now);
        ctx.body = { data: doc.data, config: doc.config };
      },
    }),
    ...derivativeReadRoutes(qualificationDerivative, deps.config),
  ];
}
