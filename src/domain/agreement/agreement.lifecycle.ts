import type { Numbering } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { dailyId, newId } from '../core/ids';
import type { FrameworkDoc } from '../framework/framework.types';
import type { QualificationDoc } from '../qualification/qualification.types';
import type { SubmissionDoc } from '../submission/submission.types';
import { withAgreementNextCheck } from './agreement.events';
import type { AgreementContract, AgreementDoc } from './agreement.types';

/**
 * The agreement a framework gets at its first qualification activation (docs/frameworks.md §Qualification status machine); its
 * `agreementID` is numbered by the commit that stores it (`agreementNumbering`).
 */
export function newAgreement(framework: FrameworkDoc, now: Date): AgreementDoc {
  const stamp = formatKyiv(now);
  const f = framework.data;
  return withAgreementNextCheck({
    data: {
      agreementID: '',
      frameworkID: f.id,
      agreementType: f.frameworkType,
      status: 'active',
      period: { startDate: stamp, endDate: f.qualificationPeriod.endDate },
      procuringEntity: f.procuringEntity,
      classification: f.classification,
      ...(f.additionalClassifications ? { additionalClassifications: f.additionalClassifications } : {}),
      ...(f.items ? { items: f.items } : {}),
      contracts: [],
      ...(f.mode ? { mode: f.mode } : {}),
      owner: f.owner,
      date: stamp,
      dateCreated: stamp,
      dateModified: stamp,
      id: newId(),
    },
    config: { restricted: framework.config?.restrictedDerivatives === true },
    // The agreement is the procuring entity's: the framework's owner token authorizes it (reference: owner_token copied).
    secrets: framework.secrets,
  });
}

/** Numbers a new agreement's `agreementID` in the commit that stores it, e.g. `UA-2026-11-22-000001`. */
export const agreementNumbering = (agreement: AgreementDoc, now: Date): Numbering =>
  dailyId('agreement', 'UA', now, (id) => (agreement.data.agreementID = id));

/**
 * An active contract for an activated qualification, its suppliers the submission's tenderers
 * (docs/frameworks.md §Qualification status machine).
 */
export function withContract(
  agreement: AgreementDoc,
  qualification: QualificationDoc,
  submission: SubmissionDoc,
  framework: FrameworkDoc,
  now: Date,
): AgreementDoc {
  const stamp = formatKyiv(now);
  const contract: AgreementContract = {
    id: newId(),
    qualificationID: qualification.data.id,
    submissionID: submission.data.id,
    status: 'active',
    suppliers: submission.data.tenderers,
    milestones: [
      { id: newId(), status: 'scheduled', type: 'activation', dueDate: framework.data.qualificationPeriod.endDate, dateModified: stamp },
    ],
    date: stamp,
    dateModified: stamp,
  };
  return withAgreementNextCheck({
    ...agreement,
    data: { ...agreement.data, contracts: [...agreement.data.contracts, contract], dateModified: stamp },
  });
}
