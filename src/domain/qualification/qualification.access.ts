import { documentPaths } from '../../masking/fragments';
import type { Derivative } from '../core/restricted-access';
import type { QualificationDoc } from './qualification.types';

/**
 * Qualifications under restricted access: whole for the procuring entity's broker and for the participant whose
 * submission it decides (spec: Access rules by object); hidden: documents' title and url (docs/masking.md §Qualification).
 */
export const qualificationDerivative: Derivative<QualificationDoc> = {
  kind: 'qualifications',
  name: 'qualification',
  mask: documentPaths('$.documents[*]'),
  readers: (doc) => [doc.links?.frameworkOwner, doc.links?.submissionOwner],
  reducedFields: ['frameworkID'],
  allowedFields: [
    'dateModified',
    'dateCreated',
    'id',
    'frameworkID',
    'submissionID',
    'qualificationType',
    'status',
    'documents',
    'date',
    'public_modified',
    'public_ts',
  ],
};
