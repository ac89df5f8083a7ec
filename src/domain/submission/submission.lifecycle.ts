import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../http/errors';
import type { Change, StoreSession } from '../../store/port';
import { issueAccess, type Access } from '../../security/tokens';
import { formatKyiv } from '../../time/kyiv';
import type { Actor } from '../core/actor';
import { newId } from '../core/ids';
import { type StoredObject } from '../core/objects';
import { insertOf, updateOf } from '../save-rules';
import { mergePatch, validated, validatedConfig } from '../core/validation';
import type { AgreementDoc } from '../agreement/agreement.types';
import type { FrameworkDoc } from '../framework/framework.types';
import { newQualification } from '../qualification';
import {
  createSubmissionSchema,
  patchSubmissionSchema,
  submissionConfigSchema,
  type SubmissionPatch,
  type SubmissionRequest,
} from './submission.schema';
import type { SubmissionDoc } from './submission.types';
import {
  frameworkAcceptsSubmissions,
  noLiveContractForNewSubmission,
  submissionTransitionAllowed,
  tendererMayActivate,
} from './submission.rules';

/** The framework's private list of activated submissions: the duplicate check and the submissions count read it. */
export const activatedSubmissionIds = (framework: FrameworkDoc): string[] => framework.submissionIds ?? [];

async function agreementOf(session: StoreSession, framework: FrameworkDoc): Promise<AgreementDoc | null> {
  const id = framework.data.agreementID;
  return id ? (((await session.get('agreements', id))?.doc as AgreementDoc | undefined) ?? null) : null;
}

/** POST /submissions (docs/frameworks.md §Submissions; validators in the reference's order). */
export async function createSubmission(
  session: StoreSession,
  body: { data: Record<string, unknown>; config?: Record<string, unknown> },
  { account, now }: Actor,
): Promise<{ doc: SubmissionDoc; access: Access }> {
  const data = validated<SubmissionRequest>(createSubmissionSchema, body.data);
  const frameworkStored = /^[0-9a-f]{32}$/.test(data.frameworkID) ? await session.get('frameworks', data.frameworkID) : null;
  if (!frameworkStored) throw apiError(422, ['frameworkID must be one of exists frameworks'], { name: 'frameworkID' });
  const framework = frameworkStored.doc as FrameworkDoc;
  frameworkAcceptsSubmissions(framework, now, 'add');
  noLiveContractForNewSubmission(await agreementOf(session, framework), data.tenderers);
  const config = validatedConfig<{ restricted?: boolean }>(submissionConfigSchema, body.config);
  const derivatives = framework.config?.restrictedDerivatives === true;
  // The spec: config.restricted follows the framework; a contradicting value is the reference's 422.
  if (config.restricted !== undefined && config.restricted !== derivatives) {
    throw apiError(422, [`restricted must be ${derivatives} for framework with restrictedDerivatives ${derivatives}`], {
      name: 'config.restricted',
    });
  }
  const stamp = formatKyiv(now);
  const { access, secrets } = issueAccess();
  const doc: SubmissionDoc = {
    data: {
      tenderers: data.tenderers,
      frameworkID: framework.data.id,
      status: 'draft',
      submissionType: framework.data.frameworkType,
      ...(framework.data.mode ? { mode: framework.data.mode } : {}),
      owner: account.name,
      date: stamp,
      dateModified: stamp,
      id: newId(),
    },
    config: { restricted: derivatives },
    secrets,
    links: { frameworkOwner: framework.data.owner },
    dateCreated: stamp,
  };
  await session.commit([insertOf('submissions', doc)]);
  return { doc, access };
}

/**
 * PATCH /submissions/{id} by its owner: draft edits, deletion, and activation, which publishes the submission
 * and creates its pending qualification in the same commit as the framework's list of activated submissions.
 */
export async function patchSubmission(
  session: StoreSession,
  stored: StoredObject<SubmissionDoc>,
  patch: Record<string, unknown>,
  now: Date,
): Promise<SubmissionDoc> {
  const before = stored.doc;
  const changes = validated<SubmissionPatch>(patchSubmissionSchema, patch);
  const frameworkStored = (await session.get('frameworks', before.data.frameworkID))!;
  const framework = frameworkStored.doc as FrameworkDoc;
  const to = changes.status ?? before.data.status;
  submissionTransitionAllowed(before.data.status, to);
  const after: SubmissionDoc = { ...before, data: mergePatch(before.data, changes) };
  const stamp = formatKyiv(now);
  const writes: Change[] = [];
  if (to === 'active') {
    const others = await session.getMany('submissions', activatedSubmissionIds(framework));
    tendererMayActivate(
      after,
      others.map((s) => s.doc as SubmissionDoc),
      await agreementOf(session, framework),
    );
  }
  frameworkAcceptsSubmissions(framework, now, 'update');
  if (to === 'active') {
    const qualification = newQualification(after, framework, now);
    Object.assign(after.data, { date: stamp, datePublished: stamp, qualificationID: qualification.data.id });
    writes.push(
      insertOf('qualifications', qualification),
      updateOf(frameworkStored, { ...framework, submissionIds: [...activatedSubmissionIds(framework), after.data.id] }),
    );
  }
  if (to === 'deleted') after.data.date = stamp;
  if (isDeepStrictEqual(after.data, before.data)) return before;
  after.data.dateModified = stamp;
  await session.commit([updateOf(stored, after), ...writes]);
  return after;
}
