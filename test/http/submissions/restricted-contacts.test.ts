import t from 'tap';
import { startTestServer } from '../../fixtures/server';
import { aTenderer, activeFramework, activeSubmission } from '../../fixtures/frameworks';

const HIDDEN = 'Приховано';
const contact = {
  name: 'Додатковий',
  name_en: 'Additional',
  name_ru: 'Дополнительный',
  telephone: '+380440000009',
  email: 'extra@example.com',
  faxNumber: '+380440000008',
  url: 'https://extra.example.com',
};
const masked = { name: HIDDEN, name_en: 'Hidden', name_ru: HIDDEN, telephone: HIDDEN, email: HIDDEN, faxNumber: HIDDEN, url: HIDDEN };

t.test(
  "a restricted submission hides its tenderers' additionalContactPoints from anonymous readers and other brokers (issue 17 defect 4; docs/masking.md §Submission)",
  async (t) => {
    const server = await startTestServer({ now: new Date('2027-01-01T00:00:00+02:00'), env: { RESTRICTED_MODE: 'hidden' } });
    t.teardown(() => server.close());
    const framework = await activeFramework(server, { restricted: true });
    const submission = await activeSubmission(server, framework.id, {
      tenderer: aTenderer('00137256', { additionalContactPoints: [contact, contact] }),
    });

    for (const key of [undefined, 'broker2']) {
      const single = (await server.request('GET', `/api/2.5/submissions/${submission.id}`, { key })).body.data;
      t.same(single.tenderers[0].additionalContactPoints, [masked, masked], `GET /submissions/{id} as ${key ?? 'anonymous'}`);
      t.equal(single.tenderers[0].name, aTenderer().name, 'the name stays visible');
    }
    for (const path of [`/api/2.5/frameworks/${framework.id}/submissions`, '/api/2.5/submissions?opt_fields=tenderers']) {
      const feed = await server.request('GET', path);
      t.same(feed.body.data[0].tenderers[0].additionalContactPoints, [masked, masked], `${path} as anonymous`);
      for (const key of [undefined, 'broker2']) {
        t.notOk(
          (await server.request('GET', path, { key })).text.includes('extra@example.com'),
          `${path} as ${key ?? 'anonymous'} shows none of it`,
        );
      }
    }
    for (const key of ['broker1', 'broker', 'brokerr']) {
      const whole = (await server.request('GET', `/api/2.5/submissions/${submission.id}`, { key })).body.data;
      t.same(whole.tenderers[0].additionalContactPoints, [contact, contact], `${key} sees them whole`);
    }
  },
);
