import { apiError } from '../../http/errors';
import type { Change, Numbering, StoreSession } from '../../store/port';
import { formatKyiv } from '../../time/kyiv';
import { newId } from '../core/ids';
import { type StoredObject } from '../core/objects';
import { insertOf, updateOf } from '../save-rules';
import { agreementNumbering, newAgreement, withContract } from '../agreement';
import type { AgreementDoc } from '../agreement/agreement.types';
import type { FrameworkDoc } from '../framework/framework.types';
import type { SubmissionDoc } from '../submission/submission.types';
import { validated } from '../core/validation';
import { patchQualificationSchema } from './qualification.schema';
import type { Qualification, QualificationDoc } from './qualification.types';

/** The pending qualification an activated submission gets (docs/frameworks.md §Qualification status machine). */
export function newQualification(submission: SubmissionDoc, framework: FrameworkDoc, now: Date): QualificationDoc {
  const stamp = formatKyiv(now);
  return {
    data: {
      frameworkID: framework.data.id,
      submissionID: submission.data.id,
      qualificationType: framework.data.frameworkType,
      status: 'pending',
      ...(framework.data.mode ? { mode: framework.data.mode } : {}),
      date: stamp,
      dateModified: stamp,
      id: newId(),
    },
    config: { restricted: framework.config?.restrictedDerivatives === true, qualificationComplainDuration: 0 },
    links: { frameworkOwner: framework.data.owner, submissionOwner: submission.data.owner },
    dateCreated: stamp,
  };
}

/** A qualification, and the framework whose owner decides it. */
export interface DecidedQualification {
  stored: StoredObject<QualificationDoc>;
  framework: StoredObject<FrameworkDoc>;
}

/**
 * PATCH /qualifications/{id} by the framework owner
 * (docs/frameworks.md §Qualifications, §Qualification status machine): a decision completes the submission; the
 * first activation creates the framework's agreement and every activation adds a contract. One commit for all.
 * The qualification's whole state machine (no automatic transition: it has no events): (none) → pending when its
 * submission is activated (`newQualification` above); pending → active or unsuccessful, both final, here.
 */
export async function decideQualification(
  session: StoreSession,
  { stored, framework: frameworkStored }: DecidedQualification,
  patch: Record<string, unknown>,
  now: Date,
): Promise<QualificationDoc> {
  const before = stored.doc;
  const { status: to } = validated<Partial<Pick<Qualification, 'status'>>>(patchQualificationSchema, patch);
  const from = before.data.status;
  if (from === 'active' || from === 'unsuccessful') throw apiError(403, `Can't update qualification in current (${from}) status`);
  const framework = frameworkStored.doc;
  if (framework.data.status !== 'active') {
    throw apiError(403, `Can't update qualification in current (${framework.data.status}) framework status`);
  }
  if (to === undefined || to === from) return before;
  const stamp = formatKyiv(now);
  const after: QualificationDoc = { ...before, data: { ...before.data, status: to, date: stamp, dateModified: stamp } };
  const submissionStored = (await session.get('submissions', before.data.submissionID))!;
  const submission = submissionStored.doc as SubmissionDoc;
  const writes: Change[] = [
    updateOf(stored, after),
    updateOf(submissionStored, { ...submission, data: { ...submission.data, status: 'complete' as const, dateModified: stamp } }),
  ];
  let numbering: Numbering | undefined;
  if (to === 'active') {
    const agreementStored = framework.data.agreementID ? await session.get('agreements', framework.data.agreementID) : null;
    if (agreementStored) {
      const agreement = agreementStored.doc as AgreementDoc;
      // As the reference: no contract is added to an agreement that is no longer active.
      if (agreement.data.status === 'active') {
        writes.push(updateOf(agreementStored, withContract(agreement, after, submission, framework, now)));
      }
    } else {
      const agreement = withContract(newAgreement(framework, now), after, submission, framework, now);
      numbering = agreementNumbering(agreement, now);
      writes.push(
        insertOf('agreements', agreement),
        updateOf(frameworkStored, { ...framework, data: { ...framework.data, agreementID: agreement.data.id, dateModified: stamp } }),
      );
    }
  }
  await session.commit(writes, numbering);
  return after;
}
