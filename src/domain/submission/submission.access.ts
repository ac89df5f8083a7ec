import { documentPaths, reachPaths } from '../../masking/fragments';
import type { Derivative } from '../core/restricted-access';
import type { SubmissionDoc } from './submission.types';

/**
 * Submissions under restricted access: whole for the participant that owns it and for the procuring
 * entity's broker (spec: Access rules by object); hidden: tenderers' address and every contact
 * (`additionalContactPoints[*]` too), documents' title and url; name, identifier and scale stay visible
 * (docs/masking.md §Submission).
 */
export const submissionDerivative: Derivative<SubmissionDoc> = {
  kind: 'submissions',
  name: 'submission',
  mask: [...reachPaths('$.tenderers[*]'), ...documentPaths('$.documents[*]')],
  readers: (doc) => [doc.data.owner, doc.links?.frameworkOwner],
  reducedFields: ['frameworkID'],
  allowedFields: [
    'dateCreated',
    'dateModified',
    'id',
    'frameworkID',
    'qualificationID',
    'submissionType',
    'status',
    'tenderers',
    'documents',
    'date',
    'datePublished',
    'public_modified',
    'public_ts',
  ],
};
