import Joi from 'joi';
import { list } from '../core/lists';
import { documentSchema } from '../core/parts.schema';
import type { Document } from '../core/shapes';
import type { Milestone } from './agreement.types';

/** A document as a client gives it: the server adds its dates, and its id when the client gives none. */
type DocumentRequest = Omit<Document, 'id' | 'datePublished' | 'dateModified'> & { id?: string };

/** What a client gives of a new milestone. */
export type MilestoneRequest = Pick<Milestone, 'type' | 'description'> & { documents?: DocumentRequest[] };

/** POST /agreements/{id}/contracts/{contract_id}/milestones `data` (docs/frameworks.md §Agreement contracts and milestones). */
export const createMilestoneSchema = Joi.object<MilestoneRequest, true>({
  type: Joi.string().valid('activation', 'ban').required(),
  description: Joi.string().min(1),
  documents: list('documents', documentSchema),
});

/** PATCH …/milestones/{milestone_id} `data`: only the activation milestone's status, and only to `met`. */
export const patchMilestoneSchema = Joi.object<Pick<Milestone, 'status' | 'description'>, true>({
  status: Joi.string().valid('scheduled', 'met', 'notMet', 'partiallyMet').required(),
  description: Joi.string().min(1),
});
