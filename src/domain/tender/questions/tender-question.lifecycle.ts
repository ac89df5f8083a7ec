import { createHash, randomBytes } from 'node:crypto';
import { apiError } from '../../../http/errors';
import type { StoreSession } from '../../../store/port';
import { epochMs as at, formatKyiv } from '../../../time/kyiv';
import { newId } from '../../core/ids';
import { validated } from '../../core/validation';
import { answerQuestionSchema, createTenderQuestionSchema } from '../../question';
import { inWindow } from '../procedure';
import { procedureOfStored } from '../tender.lifecycle';
import { itemById, itemsOf } from '../../core/items';
import { saveTender, tenderOf, type StoredTender } from '../tender-aggregate';
import type { Question, Tender, TenderOrganization, TenderQuestionRequest } from '../tender.types';

/**
 * Tender questions (beyond the spec's table; the reference's tutorial): asked by any broker during the enquiry
 * period, answered by the owner until `clarificationsUntil`. Every view shows the author only as `{hash}`, a
 * pseudonym stable within the tender (the same author gets the same hash) that no reader can reverse: it is
 * salted with a per-tender secret. The author as sent is kept outside `data`, for audits (`TenderHidden`).
 */

const questionsOf = (data: Tender): Question[] => itemsOf(data, 'questions');

export const findQuestion = (data: Pick<Tender, 'questions'>, id: string): Question => itemById(data, 'questions', id, 'question_id');

function authorHash(salt: string, author: TenderOrganization): string {
  return createHash('md5').update(`${salt}:${author.identifier.scheme}:${author.identifier.id}`).digest('hex');
}

function requireRelatedItem(tender: Tender, question: Pick<Question, 'questionOf' | 'relatedItem'>): void {
  if (question.questionOf === 'tender') return;
  const list = question.questionOf === 'lot' ? 'lots' : 'items';
  if (!question.relatedItem) throw apiError(422, ['This field is required.'], { name: 'relatedItem' });
  const named: { id?: string }[] = tender[list] ?? [];
  if (!named.some((x) => x.id === question.relatedItem)) {
    throw apiError(422, [`relatedItem should be one of ${list}`], { name: 'relatedItem' });
  }
}

/** A tender's question, for a route on it: 404 for an unknown one. */
export interface TenderQuestion {
  stored: StoredTender;
  question: Question;
}

/** `POST /tenders/{id}/questions` by any broker: 201 with the question as every reader sees it. */
export async function askQuestion(
  session: StoreSession,
  stored: StoredTender,
  data: Record<string, unknown>,
  now: Date,
): Promise<Question> {
  const { author, ...asked } = validated<TenderQuestionRequest>(createTenderQuestionSchema, data);
  const tender = stored.doc.data;
  const { enquiryPeriod } = tender;
  const time = now.getTime();
  if (tender.status === 'draft' || !enquiryPeriod?.startDate || time < at(enquiryPeriod.startDate) || time > at(enquiryPeriod.endDate)) {
    throw apiError(403, 'Can add question only in enquiryPeriod');
  }
  requireRelatedItem(tender, asked);
  for (const rule of procedureOfStored(tender).rules.question)
    await rule(tender, author, { now, session, config: stored.doc.config ?? {} });
  const salt = stored.doc.questionSalt ?? randomBytes(16).toString('hex');
  const stamp = formatKyiv(now);
  const question: Question = { id: newId(), author: { hash: authorHash(salt, author) }, ...asked, date: stamp };
  await saveTender(
    session,
    stored,
    { ...tenderOf(stored.doc), questions: [...questionsOf(tender), question], dateModified: stamp },
    { writes: ['questions'], hidden: { questionAuthors: { ...stored.doc.questionAuthors, [question.id]: author }, questionSalt: salt } },
  );
  return question;
}

/** `PATCH /tenders/{id}/questions/{question_id}` by the owner: the answer, dated; an unchanged answer is not saved. */
export async function answerQuestion(
  session: StoreSession,
  { stored, question }: TenderQuestion,
  data: Record<string, unknown>,
  now: Date,
): Promise<Question> {
  const tender = stored.doc.data;
  const { answer } = validated<{ answer: string }>(answerQuestionSchema, data);
  const { status, enquiryPeriod } = tender;
  if (!inWindow(procedureOfStored(tender), 'questions', status))
    throw apiError(403, `Can't update question in current (${status}) tender status`);
  if (enquiryPeriod?.clarificationsUntil && now.getTime() > at(enquiryPeriod.clarificationsUntil)) {
    throw apiError(403, 'Allowed to update question only before enquiryPeriod.clarificationsUntil');
  }
  if (question.answer === answer) return question;
  const stamp = formatKyiv(now);
  const answered = { ...question, answer, dateAnswered: stamp };
  const questions = questionsOf(tender).map((q) => (q.id === question.id ? answered : q));
  await saveTender(session, stored, { ...tenderOf(stored.doc), questions, dateModified: stamp }, { writes: ['questions'] });
  return answered;
}
