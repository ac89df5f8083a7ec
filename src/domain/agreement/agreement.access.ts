import { documentPaths, reachPaths } from '../../masking/fragments';
import type { Derivative } from '../core/restricted-access';
import type { AgreementDoc } from './agreement.types';

const SUPPLIER = '$.contracts[*].suppliers[*]';

/**
 * Agreements under restricted access: whole only for the procuring entity's broker, its owner (spec: Access
 * rules by object, participant "none"); hidden: suppliers' address and contacts, documents' title and url;
 * procuringEntity is never hidden (docs/masking.md §Agreement).
 */
export const agreementDerivative: Derivative<AgreementDoc> = {
  kind: 'agreements',
  name: 'agreement',
  mask: [
    ...reachPaths(SUPPLIER),
    ...documentPaths('$.documents[*]'),
    ...documentPaths('$.contracts[*].documents[*]'),
    ...documentPaths('$.contracts[*].milestones[*].documents[*]'),
  ],
  readers: (doc) => [doc.data.owner],
  reducedFields: [],
  allowedFields: [
    'dateCreated',
    'dateModified',
    'id',
    'agreementID',
    'agreementType',
    'status',
    'tender_id',
    'next_check',
    'procuringEntity',
    'public_modified',
    'public_ts',
  ],
};
