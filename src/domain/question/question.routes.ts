import type { RouteDeps } from '../../app-deps';
import { bodyData } from '../../http/body';
import type { Ctx } from '../../http/context';
import { absoluteUrl, created } from '../../http/render';
import { route, type MountableRoute } from '../../http/route';
import { actorOf } from '../core/actor';
import { loadObject, type StoredObject } from '../core/objects';
import type { FrameworkDoc } from '../framework/framework.types';
import { ownerOf } from '../core/owner';
import { answerQuestion, askQuestion, findQuestion, questionsOf, type FrameworkQuestion } from './question.lifecycle';
import { presentQuestion } from './question.mask';
import { answerQuestionSchema, createQuestionSchema } from './question.schema';

const QUESTIONS = '/api/2.5/frameworks/:id/questions';

/** The framework the questions belong to. */
const loadFramework = (ctx: Ctx): Promise<StoredObject<FrameworkDoc>> =>
  loadObject<FrameworkDoc>(ctx.state.session, 'frameworks', ctx.params.id);

async function loadQuestion(ctx: Ctx): Promise<FrameworkQuestion> {
  const stored = await loadFramework(ctx);
  return { stored, question: findQuestion(stored.doc, ctx.params.questionId) };
}

/** Endpoints 8-11. */
export function questionRoutes(deps: RouteDeps): MountableRoute[] {
  return [
    route({
      method: 'post',
      path: QUESTIONS,
      summary: 'Asks a question',
      load: loadFramework,
      access: 'broker',
      body: [{ data: createQuestionSchema }],
      result: 'created',
      writes: true,
      handle: async (ctx, stored) => {
        const { question, framework } = await askQuestion(ctx.state.session, stored, bodyData(ctx), actorOf(ctx));
        const path = `/api/2.5/frameworks/${stored.id}/questions/${question.id}`;
        created(ctx, absoluteUrl(ctx, deps.config.publicBaseUrl, path), { data: presentQuestion(question, framework, ctx.state.viewer) });
      },
    }),
    route({
      method: 'patch',
      path: `${QUESTIONS}/:questionId`,
      summary: 'Answers a question',
      load: loadQuestion,
      access: ownerOf('the framework', (loaded: FrameworkQuestion) => loaded.stored.doc),
      body: [{ data: answerQuestionSchema }],
      result: 'object',
      writes: true,
      handle: async (ctx, loaded) => {
        const { question, framework } = await answerQuestion(ctx.state.session, loaded, bodyData(ctx), ctx.state.now);
        ctx.body = { data: presentQuestion(question, framework, ctx.state.viewer) };
      },
    }),
    route({
      method: 'get',
      path: QUESTIONS,
      summary: 'Questions of a framework',
      load: loadFramework,
      access: 'public',
      result: 'list',
      handle: (ctx, { doc }) => {
        ctx.body = { data: questionsOf(doc).map((q) => presentQuestion(q, doc, ctx.state.viewer)) };
      },
    }),
    route({
      method: 'get',
      path: `${QUESTIONS}/:questionId`,
      summary: 'One question',
      load: loadQuestion,
      access: 'public',
      result: 'object',
      handle: (ctx, { stored, question }) => {
        ctx.body = { data: presentQuestion(question, stored.doc, ctx.state.viewer) };
      },
    }),
  ];
}
