import t from 'tap';
import { activeFramework, aQuestion } from '../fixtures/frameworks';
import { errorReply, startTestServer } from '../fixtures/server';

t.test('an answer that is an object with its own "toString" member → 422 as any object, not 500', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const framework = await activeFramework(server);
  const question = await server.request('POST', `/api/2.5/frameworks/${framework.id}/questions`, {
    key: 'broker1',
    body: { data: aQuestion() },
  });
  const reply = await server.request('PATCH', `/api/2.5/frameworks/${framework.id}/questions/${question.body.data.id}`, {
    key: 'broker',
    token: framework.token,
    raw: '{"data": {"answer": {"toString": 3, "valueOf": 1e308}}}',
  });
  t.match(reply, errorReply(422, 'body', 'answer', ["Couldn't interpret '{'toString': 3, 'valueOf': 1e+308}' as string."]));
});
