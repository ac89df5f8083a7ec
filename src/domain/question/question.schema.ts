import Joi from 'joi';
import { authorSchema } from '../core/organization.schema';
import type { Question } from './question.types';

/** What a client gives of a framework's question; the server sets its id and dates. */
export type QuestionRequest = Pick<Question, 'title' | 'description' | 'author'>;

const questionKeys = {
  title: Joi.string().min(1).required(),
  description: Joi.string().min(1),
  author: authorSchema.required(),
};

/** POST /frameworks/{id}/questions `data`. */
export const createQuestionSchema = Joi.object<QuestionRequest, true>(questionKeys);

/** PATCH /frameworks/{id}/questions/{question_id} `data`: only the answer (docs/frameworks.md §Questions). */
export const answerQuestionSchema = Joi.object<Required<Pick<Question, 'answer'>>, true>({ answer: Joi.string().min(1).required() });

/** POST /tenders/{id}/questions `data`: a question about the tender, one of its lots or one of its items. */
export const createTenderQuestionSchema = Joi.object({
  ...questionKeys,
  questionOf: Joi.string().valid('tender', 'lot', 'item').default('tender'),
  relatedItem: Joi.string().min(1),
});
