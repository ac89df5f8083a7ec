import Joi from 'joi';
import { list } from '../core/lists';
import { tendererSchema } from '../core/organization.schema';
import type { Submission, SubmissionDoc } from './submission.types';

/** What a client gives at creation and in a PATCH; the server sets the rest. */
export type SubmissionRequest = Pick<Submission, 'tenderers' | 'frameworkID' | 'status' | 'submissionType'>;
export type SubmissionPatch = Partial<Pick<Submission, 'tenderers' | 'status'>>;

/** POST /submissions `data` (docs/frameworks.md §Submissions); `submissionType` is set by the server from the framework. */
export const createSubmissionSchema = Joi.object<SubmissionRequest, true>({
  tenderers: list('tenderers', tendererSchema).min(1).required(),
  frameworkID: Joi.string().required(),
  status: Joi.string().valid('draft'),
  submissionType: Joi.string(),
});

/** PATCH /submissions/{id} `data`; moving a submission to another framework is not allowed (docs/frameworks.md §Submissions). */
export const patchSubmissionSchema = Joi.object<SubmissionPatch, true>({
  tenderers: list('tenderers', tendererSchema).min(1),
  status: Joi.string().valid('draft', 'active', 'deleted', 'complete'),
});

export const submissionConfigSchema = Joi.object<NonNullable<SubmissionDoc['config']>, true>({ restricted: Joi.boolean().strict() });
