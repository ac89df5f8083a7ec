import Router from '@koa/router';
import type { AppDeps } from '../../app-deps';
import { isBroker, seesRestricted, type Viewer } from '../../http/auth';
import { bodyData } from '../../http/body';
import type { Ctx, RequestState } from '../../http/context';
import { apiError } from '../../http/errors';
import { absoluteUrl, created } from '../../http/render';
import { applyMask } from '../../masking/mask';
import type { Doc } from '../../store/port';
import { epochMs as at, formatKyiv } from '../../time/kyiv';
import { newId } from '../core/ids';
import { itemById, itemsOf } from '../core/items';
import { loadObject, updateOf, type ObjectDoc } from '../core/objects';
import { requireBroker, requireOwner } from '../core/owner';
import { validated } from '../core/validation';
import { QUESTION_MASK } from './question.mask';
import { answerQuestionSchema, createQuestionSchema } from './question.schema';

/**
 * Questions live in the framework's document, outside its `data` (the framework view does not list them);
 * posting or answering one saves the framework and moves its dateModified (docs/frameworks.md §Questions).
 */
const questionsOf = (doc: ObjectDoc): Doc[] => itemsOf(doc, 'questions');

/** The broker that asked each question, by question id: kept beside the questions, never shown. */
type FrameworkDoc = ObjectDoc & { questionOwners?: Record<string, string> };

/**
 * On a framework with restricted derivatives, the hidden view for everyone but the framework's owner, the
 * broker that asked the question (its own question, the 201 included) and `r` brokers.
 * See docs/masking.md §Framework questions, §Who sees what.
 */
function presentQuestion(question: Doc, framework: FrameworkDoc, viewer: Viewer): Doc {
  const name = isBroker(viewer) ? viewer.account!.name : undefined;
  const whole =
    framework.config?.restrictedDerivatives !== true ||
    seesRestricted(viewer) ||
    (name !== undefined && (name === framework.data.owner || name === framework.questionOwners?.[question.id]));
  return whole ? question : applyMask(question, QUESTION_MASK);
}

const findQuestion = (doc: ObjectDoc, id: string) => itemById(doc, 'questions', id, 'question_id');

/** Endpoints 8-11. */
export function questionRoutes(deps: AppDeps): Router<RequestState> {
  const router = new Router<RequestState>({ prefix: '/api/2.5/frameworks/:id/questions' });
  const load = (ctx: Ctx) => loadObject(ctx.state.session, 'frameworks', ctx.params.id);

  router.post('/', async (ctx) => {
    const stored = await load(ctx);
    requireBroker(ctx);
    const input = validated<Doc>(createQuestionSchema, bodyData(ctx));
    const framework = stored.doc;
    const { status, enquiryPeriod } = framework.data;
    if (status !== 'active') throw apiError(403, `Can't add question in current (${status}) framework status`);
    const now = ctx.state.now.getTime();
    if (now < at(enquiryPeriod.startDate) || now > at(enquiryPeriod.endDate)) {
      throw apiError(
        403,
        `Question can be add only during the enquiry period: from (${enquiryPeriod.startDate}) to (${enquiryPeriod.endDate}).`,
      );
    }
    const stamp = formatKyiv(ctx.state.now);
    const question = { id: newId(), ...input, date: stamp };
    const after: FrameworkDoc = {
      ...framework,
      data: { ...framework.data, dateModified: stamp },
      questions: [...questionsOf(framework), question],
      questionOwners: { ...(framework as FrameworkDoc).questionOwners, [question.id]: ctx.state.viewer.account!.name },
    };
    await ctx.state.session.commit([updateOf(stored, after)]);
    const path = `/api/2.5/frameworks/${framework.data.id}/questions/${question.id}`;
    created(ctx, absoluteUrl(ctx, deps.config.publicBaseUrl, path), { data: presentQuestion(question, after, ctx.state.viewer) });
  });

  router.patch('/:questionId', async (ctx) => {
    const stored = await load(ctx);
    const framework = stored.doc;
    const question = findQuestion(framework, ctx.params.questionId);
    requireBroker(ctx);
    requireOwner(ctx, framework);
    const { answer } = validated<{ answer: string }>(answerQuestionSchema, bodyData(ctx));
    const { status, enquiryPeriod } = framework.data;
    if (enquiryPeriod?.clarificationsUntil && ctx.state.now.getTime() > at(enquiryPeriod.clarificationsUntil)) {
      throw apiError(403, 'Allowed to update question only before enquiryPeriod.clarificationsUntil');
    }
    if (status !== 'active') throw apiError(403, `Can't update question in current (${status}) framework status`);
    // An unchanged answer is not saved (the reference answers null here; we answer the question).
    if (question.answer === answer) {
      ctx.body = { data: presentQuestion(question, framework, ctx.state.viewer) };
      return;
    }
    const stamp = formatKyiv(ctx.state.now);
    const answered = { ...question, answer, dateAnswered: stamp };
    const after: ObjectDoc = {
      ...framework,
      data: { ...framework.data, dateModified: stamp },
      questions: questionsOf(framework).map((q) => (q.id === question.id ? answered : q)),
    };
    await ctx.state.session.commit([updateOf(stored, after)]);
    ctx.body = { data: presentQuestion(answered, after, ctx.state.viewer) };
  });

  router.get('/', async (ctx) => {
    const framework = (await load(ctx)).doc;
    ctx.body = { data: questionsOf(framework).map((q) => presentQuestion(q, framework, ctx.state.viewer)) };
  });

  router.get('/:questionId', async (ctx) => {
    const framework = (await load(ctx)).doc;
    ctx.body = { data: presentQuestion(findQuestion(framework, ctx.params.questionId), framework, ctx.state.viewer) };
  });

  return router;
}
