import Joi from 'joi';
import { list } from '../core/lists';
import { documentSchema } from '../tender/parts.schema';

/** POST /agreements/{id}/contracts/{contract_id}/milestones `data` (docs/frameworks.md §Agreement contracts and milestones). */
export const createMilestoneSchema = Joi.object({
  type: Joi.string().valid('activation', 'ban').required(),
  description: Joi.string().min(1),
  documents: list('documents', documentSchema),
});

/** PATCH …/milestones/{milestone_id} `data`: only the activation milestone's status, and only to `met`. */
export const patchMilestoneSchema = Joi.object({
  status: Joi.string().valid('scheduled', 'met', 'notMet', 'partiallyMet').required(),
  description: Joi.string().min(1),
});
