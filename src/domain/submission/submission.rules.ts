import { apiError } from '../../http/errors';
import { parseIsoDate } from '../../time/kyiv';
import type { AgreementDoc } from '../agreement/agreement.types';
import type { Organization } from '../core/shapes';
import type { FrameworkDoc } from '../framework/framework.types';
import { pythonDateText } from '../framework';
import type { SubmissionDoc } from './submission.types';

/** `add` at POST, `update` at PATCH: the word the reference's messages use. */
export type SubmissionAction = 'add' | 'update';

/**
 * The framework must have a period containing now, then be active (docs/frameworks.md §Submissions); the period's
 * dates print as Python `str(datetime)`.
 */
export function frameworkAcceptsSubmissions(framework: FrameworkDoc, now: Date, action: SubmissionAction): void {
  const { period, status } = framework.data;
  if (!period) throw apiError(403, `Submission cannot be ${action} without framework period`);
  const at = now.getTime();
  if (at < parseIsoDate(period.startDate)!.getTime() || at > parseIsoDate(period.endDate)!.getTime()) {
    throw apiError(
      403,
      `Submission can be ${action} only during the period: from (${pythonDateText(period.startDate)}) to (${pythonDateText(period.endDate)}).`,
    );
  }
  if (status !== 'active') throw apiError(403, `Can't ${action} submission in current (${status}) framework status`);
}

const identifierOf = (organization: Organization | undefined) => organization?.identifier?.id;

/** POST: the first agreement contract of the tenderer must not be active or suspended (docs/frameworks.md §Submissions). */
export function noLiveContractForNewSubmission(agreement: AgreementDoc | null, tenderers: Organization[]): void {
  const id = identifierOf(tenderers[0]);
  const contract = agreement?.data.contracts?.find((c) => identifierOf(c.suppliers?.[0]) === id);
  if (contract && (contract.status === 'active' || contract.status === 'suspended')) {
    throw apiError(403, `Can't add submission when contract in agreement with same identifier.id in ${contract.status} status`);
  }
}

/**
 * Activation: one active submission per tenderer identifier per framework, and none while the tenderer holds an
 * active or suspended contract in the framework's agreement (docs/frameworks.md §Submissions).
 */
export function tendererMayActivate(submission: SubmissionDoc, others: SubmissionDoc[], agreement: AgreementDoc | null): void {
  const id = identifierOf(submission.data.tenderers[0]);
  const { frameworkID } = submission.data;
  const duplicate = others.some(
    (other) =>
      other.data.id !== submission.data.id && other.data.status === 'active' && other.data.tenderers.some((t) => identifierOf(t) === id),
  );
  if (duplicate) throw apiError(403, `Tenderer already have active submission for framework ${frameworkID}`);
  const contracted = (agreement?.data.contracts ?? []).some(
    (c) => (c.status === 'active' || c.status === 'suspended') && c.suppliers.some((s) => identifierOf(s) === id),
  );
  if (contracted) {
    throw apiError(403, `Tenderer can't activate submission with active/suspended contract in agreement for framework ${frameworkID}`);
  }
}

/**
 * The submission's state machine (no automatic transition: a submission has no events),
 * docs/frameworks.md §Submission status machine:
 * - (none) → draft: `POST /submissions`, submission.lifecycle.ts `createSubmission`.
 * - draft → active, with its pending qualification, or draft → deleted: the owner's PATCH, submission.lifecycle.ts
 *   `patchSubmission`, allowed by this rule.
 * - active → complete: its qualification decided, qualification/qualification.lifecycle.ts `decideQualification`.
 * Nothing leaves active, complete or deleted by PATCH.
 */
export function submissionTransitionAllowed(from: string, to: string): void {
  if (from !== 'draft') throw apiError(403, `Can't update submission in current (${from}) status`);
  if (!['draft', 'active', 'deleted'].includes(to)) {
    throw apiError(403, `Can't update submission from current (${from}) to new (${to}) status`);
  }
}
