import Joi from 'joi';
import { list } from '../core/lists';
import { tendererSchema } from '../core/organization.schema';

/** POST /submissions `data` (docs/frameworks.md §Submissions); `submissionType` is set by the server from the framework. */
export const createSubmissionSchema = Joi.object({
  tenderers: list('tenderers', tendererSchema).min(1).required(),
  frameworkID: Joi.string().required(),
  status: Joi.string().valid('draft'),
  submissionType: Joi.string(),
});

/** PATCH /submissions/{id} `data`; moving a submission to another framework is not allowed (docs/frameworks.md §Submissions). */
export const patchSubmissionSchema = Joi.object({
  tenderers: list('tenderers', tendererSchema).min(1),
  status: Joi.string().valid('draft', 'active', 'deleted', 'complete'),
});

export const submissionConfigSchema = Joi.object({ restricted: Joi.boolean().strict() });
