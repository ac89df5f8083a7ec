import { addressPaths, documentPaths } from '../../masking/fragments';
import type { Derivative } from '../core/restricted-access';

const CONTACT = ['telephone', 'email', 'faxNumber', 'url', 'name', 'name_en', 'name_ru'];

/**
 * Submissions under restricted access: whole for the participant that owns it and for the procuring
 * entity's broker (spec: Access rules by object); hidden: tenderers' address and contact point, documents'
 * title and url; name, identifier and scale stay visible (spec: Hiding rules; docs/frameworks.md §Restricted derivatives).
 */
export const submissionDerivative: Derivative = {
  kind: 'submissions',
  name: 'submission',
  mask: [
    ...addressPaths('$.tenderers[*].address'),
    ...CONTACT.map((f) => `$.tenderers[*].contactPoint.${f}`),
    ...documentPaths('$.documents[*]'),
  ],
  readers: (doc) => [doc.data.owner, doc.links?.frameworkOwner],
  reducedFields: ['frameworkID'],
  allowedFields: [
    'dateCreated', 'dateModified', 'id', 'frameworkID', 'qualificationID', 'submissionType', 'status', 'tenderers',
    'documents', 'date', 'datePublished', 'public_modified', 'public_ts',
  ],
};
