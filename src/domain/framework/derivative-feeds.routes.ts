import type { RouteDeps } from '../../app-deps';
import { feedHandler } from '../../http/feed';
import { route, type MountableRoute } from '../../http/route';
import { qualificationDerivative } from '../qualification';
import { submissionDerivative } from '../submission';
import { derivativeFeed, type Derivative } from '../core/restricted-access';

/**
 * Default fields in the order the reference lists them (dps/tutorial/get-*-by-framework-id.http). That recording
 * shows no submission documents; they stand where a submission's stored documents do, after `date`.
 */
const SUBMISSION_FIELDS = [
  'tenderers',
  'frameworkID',
  'status',
  'dateCreated',
  'dateModified',
  'date',
  'documents',
  'qualificationID',
  'datePublished',
  'id',
];
const QUALIFICATION_FIELDS = ['documents', 'submissionID', 'frameworkID', 'status', 'date', 'dateCreated', 'dateModified', 'id'];

/**
 * `GET /frameworks/{id}/submissions` and `/qualifications` (docs/frameworks.md §Framework feeds): the derivative feeds of one
 * framework, through the same access decision. As the reference, the framework is not looked up: an unknown id
 * lists nothing.
 */
export function frameworkDerivativeFeeds(deps: RouteDeps): MountableRoute[] {
  const { publicBaseUrl, restrictedMode } = deps.config;
  const scoped = (derivative: Derivative, defaultFields: string[]) =>
    route({
      method: 'get',
      path: `/api/2.5/frameworks/:id/${derivative.kind}`,
      summary: `Feed of a framework's ${derivative.kind} (page links name the ${derivative.kind} feed)`,
      access: 'public',
      result: 'feed',
      handle: feedHandler({ ...derivativeFeed(derivative, restrictedMode), defaultFields }, publicBaseUrl, {
        frameworkID: (ctx) => ctx.params.id,
        linkPath: `/api/2.5/${derivative.kind}`,
      }),
    });
  return [scoped(submissionDerivative, SUBMISSION_FIELDS), scoped(qualificationDerivative, QUALIFICATION_FIELDS)];
}
