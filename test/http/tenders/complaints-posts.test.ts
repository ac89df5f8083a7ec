import t from 'tap';
import { errorReply as error, startTestServer, type TestServer } from '../../fixtures/server';
import { aComplaint, anObjection, complainableTender, complaintsPath, patchComplaint, postComplaint } from '../../fixtures/complaints';

/**
 * A complaint's posts as the recordings play them (`complaint-post-*.http`; docs/tenders.md §Complaints: posts): the
 * review body asks each party, each answers it, the owner explains itself; the recordings' refusals.
 */
let server: TestServer;
t.before(async () => {
  server = await startTestServer();
});
t.teardown(() => server.close());

const reply = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

t.test('questions, answers and an explanation; the recorded refusals', async (t) => {
  const tender = await complainableTender(server);
  const made = await postComplaint(server, complaintsPath(tender), aComplaint([anObjection('tender', tender.id)]));
  const one = `${complaintsPath(tender)}/${made.body.data.id}`;
  const objection = made.body.data.objections[0].id;
  const complainant = { key: 'broker1', token: made.body.access.token };
  const owner = { key: 'broker', token: tender.token };
  const post = (data: Record<string, unknown>, as: { key: string; token?: string }) =>
    server.request('POST', `${one}/posts`, {
      ...as,
      body: { data: { title: 'Уточнення по вимозі', description: 'Відсутній документ', relatedObjection: objection, ...data } },
    });

  t.same(
    reply(await post({ recipient: 'complaint_owner' }, { key: 'reviewer' })),
    error(403, 'body', 'data', "Can't submit or edit post in current (draft) complaint status"),
  );
  await patchComplaint(server, one, { status: 'pending' }, 'bot');
  t.same(reply(await post({ recipient: 'complaint_owner' }, { key: 'bot' })), error(403, 'url', 'permission', 'Forbidden'), 'not the bot');
  t.same(
    reply(await post({ recipient: 'complaint_owner' }, { key: 'broker2' })),
    error(403, 'url', 'permission', 'Forbidden'),
    'no other broker',
  );

  const question = await post({ recipient: 'complaint_owner' }, { key: 'reviewer' });
  t.equal(question.status, 201, question.text);
  t.match(question.body.data, {
    author: 'aboveThresholdReviewers',
    recipient: 'complaint_owner',
    datePublished: String,
    id: /^[0-9a-f]{32}$/,
  });
  const answer = await post(
    { recipient: 'aboveThresholdReviewers', relatedPost: question.body.data.id, description: 'Додано документ' },
    complainant,
  );
  t.equal(answer.status, 201, answer.text);
  t.match(answer.body.data, { author: 'complaint_owner', relatedPost: question.body.data.id });
  t.same(
    reply(await post({ recipient: 'aboveThresholdReviewers', relatedPost: question.body.data.id }, complainant)),
    error(422, 'body', 'relatedPost', ['relatedPost must be unique.']),
  );

  const toOwner = await post({ recipient: 'tender_owner' }, { key: 'reviewer' });
  t.equal(
    (await post({ recipient: 'aboveThresholdReviewers', relatedPost: toOwner.body.data.id }, owner)).status,
    201,
    'the owner answers',
  );

  // complaint-post-explanation-invalid.http: a party's post with a recipient and no relatedPost.
  t.same(reply(await post({ recipient: 'complaint_owner' }, owner)), {
    status: 422,
    body: {
      status: 'error',
      errors: [
        {
          location: 'body',
          name: 'recipient',
          description: ["Forbidden to add recipient without relatedPost for ['complaint_owner', 'tender_owner']"],
        },
        { location: 'body', name: 'relatedPost', description: ['This field is required.'] },
      ],
    },
  });
  const explanation = await post({ title: 'Пояснення до скарги', description: 'Була така необхідність' }, owner);
  t.equal(explanation.status, 201, explanation.text);
  t.notOk('recipient' in explanation.body.data);
  // complaint-post-explanation-answer-forbidden.http
  t.same(
    reply(await post({ recipient: 'aboveThresholdReviewers', relatedPost: explanation.body.data.id }, complainant)),
    error(422, 'body', 'relatedPost', ['forbidden to answer to explanations']),
  );
  t.same(
    reply(await post({ relatedObjection: 'x' }, owner)),
    error(422, 'body', 'relatedObjection', 'should be one of complaint objections id'),
  );

  const list = await server.request('GET', `${one}/posts`);
  t.equal(list.body.data.length, 5);
  t.same((await server.request('GET', `${one}/posts/${question.body.data.id}`)).body.data, question.body.data);
  t.same(reply(await server.request('GET', `${one}/posts/nope`)), error(404, 'url', 'post_id', 'Not Found'));
  t.same((await server.request('GET', one)).body.data.posts, list.body.data, 'the posts are in the complaint');
});
