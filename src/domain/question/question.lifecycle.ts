import { apiError } from '../../http/errors';
import type { StoreSession } from '../../store/port';
import { epochMs as at, formatKyiv } from '../../time/kyiv';
import type { Actor } from '../core/actor';
import { newId } from '../core/ids';
import { itemById, itemsOf } from '../core/items';
import { type StoredObject } from '../core/objects';
import { updateOf } from '../save-rules';
import { validated } from '../core/validation';
import type { FrameworkDoc } from '../framework/framework.types';
import { answerQuestionSchema, createQuestionSchema, type QuestionRequest } from './question.schema';
import type { Question } from './question.types';

/**
 * Questions live in the framework's document, outside its `data` (the framework view does not list them);
 * posting or answering one saves the framework and moves its dateModified (docs/frameworks.md §Questions).
 */
export const questionsOf = (doc: FrameworkDoc): Question[] => itemsOf(doc, 'questions');

export const findQuestion = (doc: FrameworkDoc, id: string) => itemById(doc, 'questions', id, 'question_id');

/** A question of a framework, as a route loads it. */
export interface FrameworkQuestion {
  stored: StoredObject<FrameworkDoc>;
  question: Question;
}

/** `POST /frameworks/{id}/questions` by a broker, during the enquiry period of an active framework. */
export async function askQuestion(
  session: StoreSession,
  stored: StoredObject<FrameworkDoc>,
  body: Record<string, unknown>,
  { account, now }: Actor,
): Promise<{ question: Question; framework: FrameworkDoc }> {
  const input = validated<QuestionRequest>(createQuestionSchema, body);
  const framework: FrameworkDoc = stored.doc;
  const { status, enquiryPeriod } = framework.data;
  if (status !== 'active') throw apiError(403, `Can't add question in current (${status}) framework status`);
  if (now.getTime() < at(enquiryPeriod!.startDate) || now.getTime() > at(enquiryPeriod!.endDate)) {
    throw apiError(
      403,
      `Question can be add only during the enquiry period: from (${enquiryPeriod!.startDate}) to (${enquiryPeriod!.endDate}).`,
    );
  }
  const stamp = formatKyiv(now);
  const question: Question = { id: newId(), ...input, date: stamp };
  const after: FrameworkDoc = {
    ...framework,
    data: { ...framework.data, dateModified: stamp },
    questions: [...questionsOf(framework), question],
    questionOwners: { ...framework.questionOwners, [question.id]: account.name },
  };
  await session.commit([updateOf(stored, after)]);
  return { question, framework: after };
}

/** `PATCH /frameworks/{id}/questions/{question_id}` by the framework's owner, before clarificationsUntil. */
export async function answerQuestion(
  session: StoreSession,
  { stored, question }: FrameworkQuestion,
  body: Record<string, unknown>,
  now: Date,
): Promise<{ question: Question; framework: FrameworkDoc }> {
  const framework: FrameworkDoc = stored.doc;
  const { answer } = validated<{ answer: string }>(answerQuestionSchema, body);
  const { status, enquiryPeriod } = framework.data;
  if (enquiryPeriod?.clarificationsUntil && now.getTime() > at(enquiryPeriod.clarificationsUntil)) {
    throw apiError(403, 'Allowed to update question only before enquiryPeriod.clarificationsUntil');
  }
  if (status !== 'active') throw apiError(403, `Can't update question in current (${status}) framework status`);
  // An unchanged answer is not saved (the reference answers null here; we answer the question).
  if (question.answer === answer) return { question, framework };
  const stamp = formatKyiv(now);
  const answered = { ...question, answer, dateAnswered: stamp };
  const after: FrameworkDoc = {
    ...framework,
    data: { ...framework.data, dateModified: stamp },
    questions: questionsOf(framework).map((q) => (q.id === question.id ? answered : q)),
  };
  await session.commit([updateOf(stored, after)]);
  return { question: answered, framework: after };
}
