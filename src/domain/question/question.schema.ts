import Joi from 'joi';
import { authorSchema } from '../core/organization.schema';

/** POST /frameworks/{id}/questions `data`. */
export const createQuestionSchema = Joi.object({
  title: Joi.string().min(1).required(),
  description: Joi.string().min(1),
  author: authorSchema.required(),
});

/** PATCH /frameworks/{id}/questions/{question_id} `data`: only the answer (docs/frameworks.md §Questions). */
export const answerQuestionSchema = Joi.object({ answer: Joi.string().min(1).required() });

/** POST /tenders/{id}/questions `data`: a question about the tender, one of its lots or one of its items. */
export const createTenderQuestionSchema = createQuestionSchema.keys({
  questionOf: Joi.string().valid('tender', 'lot', 'item').default('tender'),
  relatedItem: Joi.string().min(1),
});
