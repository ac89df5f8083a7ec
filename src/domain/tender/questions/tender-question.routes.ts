import type { RouteDeps } from '../../../app-deps';
import { bodyData } from '../../../http/body';
import type { Ctx } from '../../../http/context';
import { absoluteUrl, created } from '../../../http/render';
import { route, type MountableRoute } from '../../../http/route';
import { answerQuestionSchema, createTenderQuestionSchema } from '../../question';
import { loadTenderOf, tenderListReads, tenderPartOwner } from '../tender.routes';
import { answerQuestion, askQuestion, findQuestion, type TenderQuestion } from './tender-question.lifecycle';

/** The question the path names, with its stored tender: 404 for an unknown one. */
async function loadQuestion(ctx: Ctx): Promise<TenderQuestion> {
  const stored = await loadTenderOf(ctx);
  return { stored, question: findQuestion(stored.doc.data, ctx.params.questionId) };
}

/** `/tenders/{id}/questions[/{question_id}]` (docs/tenders.md §Questions). */
export function tenderQuestionRoutes(deps: RouteDeps): MountableRoute[] {
  const base = deps.config.publicBaseUrl;
  return [
    route({
      method: 'post',
      path: '/api/2.5/tenders/:id/questions',
      summary: 'Asks a question of a tender',
      load: loadTenderOf,
      access: 'broker',
      body: [{ data: createTenderQuestionSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const question = await askQuestion(ctx.state.session, stored, bodyData(ctx), ctx.state.now);
        created(ctx, absoluteUrl(ctx, base, `/api/2.5/tenders/${ctx.params.id}/questions/${question.id}`), { data: question });
      },
    }),
    route({
      method: 'patch',
      path: '/api/2.5/tenders/:id/questions/:questionId',
      summary: 'Answers a tender question',
      load: loadQuestion,
      access: tenderPartOwner,
      body: [{ data: answerQuestionSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        ctx.body = { data: await answerQuestion(ctx.state.session, loaded, bodyData(ctx), ctx.state.now) };
      },
    }),
    ...tenderListReads('questions', 'questionId', 'question_id', { list: 'Questions of a tender', one: 'One question of a tender' }),
  ];
}
