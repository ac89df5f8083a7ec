import t from 'tap';
import { frameworkCheck, TOO_FEW_SUBMISSIONS } from '../../../../src/domain/framework/framework.check';
import { frameworkEvents, withNextCheck } from '../../../../src/domain/framework/framework.events';
import type { ObjectDoc } from '../../../../src/domain/core/objects';
import type { Change, StoreSession, Stored } from '../../../../src/store/port';
import { ManualClock } from '../../../../src/time/clock';
import { at } from '../../time/fixtures';

/**
 * The framework's events on fixtures, without a server: each event's due time, what it applies, and the check that
 * runs them on an injected clock (docs/frameworks.md §Framework status machine, §Framework next_check).
 */

const ACTIVATED = '2027-01-01T00:00:00+02:00';
const SUBMISSIONS_CHECK = '2027-01-16T00:00:00+02:00';
const QUALIFICATION_END = '2028-02-05T00:00:00+02:00';

function aFramework(overrides: Partial<ObjectDoc> = {}, data: Record<string, unknown> = {}): ObjectDoc {
  return {
    data: {
      id: 'f'.repeat(32),
      frameworkType: 'dynamicPurchasingSystem',
      status: 'active',
      period: { startDate: ACTIVATED, endDate: '2028-01-06T00:00:00+02:00' },
      qualificationPeriod: { startDate: ACTIVATED, endDate: QUALIFICATION_END },
      agreementID: 'a'.repeat(32),
      dateModified: ACTIVATED,
      ...data,
    },
    submissionIds: ['s1', 's2'],
    ...overrides,
  };
}

const stored = (kind: 'frameworks' | 'agreements', doc: ObjectDoc): Stored => ({ kind, id: doc.data.id, rev: 3, seq: 1, doc });

const anAgreement = (): ObjectDoc => ({
  data: { id: 'a'.repeat(32), status: 'active', period: { startDate: ACTIVATED, endDate: QUALIFICATION_END }, contracts: [] },
});

/** A session that holds only the framework's agreement. */
const sessionWith = (agreement: ObjectDoc) => ({ get: async () => stored('agreements', agreement) }) as unknown as StoreSession;

const docOf = (change: Change) => change.doc as ObjectDoc;

t.test('an active framework not yet successful has two events: the submissions check, then the qualification end', async (t) => {
  t.same(
    frameworkEvents(aFramework()).map((e) => e.due),
    [SUBMISSIONS_CHECK, QUALIFICATION_END],
  );
  t.equal(withNextCheck(aFramework()).data.next_check, SUBMISSIONS_CHECK, 'next_check is the earlier (recorded activation)');
});

t.test('the submissions check is 15 days after period.startDate ceiled to midnight', async (t) => {
  const framework = aFramework({}, { period: { startDate: '2027-01-01T09:00:00+02:00' } });
  t.equal(frameworkEvents(framework)[0].due, '2027-01-17T00:00:00+02:00');
});

t.test('a successful framework has only the qualification end, its next_check', async (t) => {
  const framework = aFramework({ successful: true });
  t.same(
    frameworkEvents(framework).map((e) => e.due),
    [QUALIFICATION_END],
  );
  t.equal(withNextCheck(framework).data.next_check, QUALIFICATION_END);
});

t.test('next_check is the qualification end when that comes before the submissions check', async (t) => {
  const framework = aFramework({}, { qualificationPeriod: { startDate: ACTIVATED, endDate: '2027-01-10T00:00:00+02:00' } });
  t.equal(withNextCheck(framework).data.next_check, '2027-01-10T00:00:00+02:00');
});

t.test('a due is written with the Kyiv offset whatever offset the client gave the qualification end', async (t) => {
  const framework = aFramework({ successful: true }, { qualificationPeriod: { startDate: ACTIVATED, endDate: '2028-02-04T22:00:00Z' } });
  t.equal(withNextCheck(framework).data.next_check, QUALIFICATION_END);
});

t.test('a draft, complete or unsuccessful framework has no events and loses next_check', async (t) => {
  for (const status of ['draft', 'complete', 'unsuccessful']) {
    const framework = aFramework({}, { status, next_check: SUBMISSIONS_CHECK });
    t.same(frameworkEvents(framework), [], status);
    t.notOk('next_check' in withNextCheck(framework).data, status);
  }
});

t.test('the submissions check with fewer than 3 activated submissions makes the framework unsuccessful', async (t) => {
  const framework = aFramework();
  frameworkEvents(framework)[0].apply(framework, at(SUBMISSIONS_CHECK));
  t.equal(framework.data.status, 'unsuccessful');
  t.notOk(framework.successful);
});

t.test('the submissions check with 3 activated submissions marks the framework successful, still active', async (t) => {
  const framework = aFramework({ submissionIds: ['s1', 's2', 's3'] });
  frameworkEvents(framework)[0].apply(framework, at(SUBMISSIONS_CHECK));
  t.equal(framework.data.status, 'active');
  t.equal(framework.successful, true);
});

t.test('the qualification end completes the framework', async (t) => {
  const framework = aFramework({ successful: true });
  frameworkEvents(framework)[0].apply(framework, at(QUALIFICATION_END));
  t.equal(framework.data.status, 'complete');
});

t.test('the check before the submissions check changes nothing', async (t) => {
  const clock = new ManualClock(at('2027-01-15T23:59:59+02:00'));
  const framework = aFramework();
  t.same(await frameworkCheck(sessionWith(anAgreement()), stored('frameworks', framework), clock.now()), []);
});

t.test('the check at the submissions check with too few: framework unsuccessful, agreement terminated, one commit', async (t) => {
  const clock = new ManualClock(at(SUBMISSIONS_CHECK));
  const changes = await frameworkCheck(sessionWith(anAgreement()), stored('frameworks', aFramework()), clock.now());
  t.same(
    changes.map((c) => c.kind),
    ['frameworks', 'agreements'],
  );
  const [framework, agreement] = changes.map(docOf);
  t.equal(framework.data.status, 'unsuccessful');
  t.equal(framework.data.dateModified, SUBMISSIONS_CHECK);
  t.notOk('next_check' in framework.data);
  t.match(agreement.data, { status: 'terminated', terminationDetails: TOO_FEW_SUBMISSIONS, dateModified: SUBMISSIONS_CHECK });
  t.notOk('next_check' in agreement.data);
});

t.test('the check at the submissions check with enough: successful, next_check moves to the qualification end', async (t) => {
  const clock = new ManualClock(at(SUBMISSIONS_CHECK));
  const changes = await frameworkCheck(
    sessionWith(anAgreement()),
    stored('frameworks', aFramework({ submissionIds: ['1', '2', '3'] })),
    clock.now(),
  );
  t.equal(changes.length, 1);
  t.match(docOf(changes[0]), { successful: true, data: { status: 'active', next_check: QUALIFICATION_END } });
});

t.test('one late run passes every due event in order: successful, then complete', async (t) => {
  const clock = new ManualClock(at(SUBMISSIONS_CHECK));
  clock.set(at('2028-03-01T00:00:00+02:00'));
  const changes = await frameworkCheck(
    sessionWith(anAgreement()),
    stored('frameworks', aFramework({ submissionIds: ['1', '2', '3'] })),
    clock.now(),
  );
  t.equal(changes.length, 1);
  t.match(docOf(changes[0]), { successful: true, data: { status: 'complete' } });
  t.notOk('next_check' in docOf(changes[0]).data);
});

t.test('after any run no event is due and next_check is the earliest remaining event', async (t) => {
  const clock = new ManualClock(at(ACTIVATED));
  for (const days of [15, 16, 400, 500]) {
    clock.set(at(ACTIVATED));
    clock.advance(days * 86_400_000);
    const framework = aFramework({ submissionIds: ['1', '2', '3'] });
    const [change] = await frameworkCheck(sessionWith(anAgreement()), stored('frameworks', framework), clock.now());
    const after = change ? docOf(change) : framework;
    const events = frameworkEvents(after);
    t.notOk(
      events.some((e) => Date.parse(e.due) <= clock.now().getTime()),
      `nothing due after ${days} days`,
    );
    t.equal(after.data.next_check, events.length ? events.map((e) => e.due).sort()[0] : undefined, `${days} days`);
  }
});
