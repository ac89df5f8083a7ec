import t from 'tap';
import { agreementCheck } from '../../../../src/domain/agreement/agreement.check';
import { agreementEvents, withAgreementNextCheck } from '../../../../src/domain/agreement/agreement.events';
import type { ObjectDoc } from '../../../../src/domain/core/objects';
import type { Change, StoreSession, Stored } from '../../../../src/store/port';
import { ManualClock } from '../../../../src/time/clock';
import { at } from '../../time/fixtures';

/**
 * The agreement's events on fixtures, without a server: each event's due time, what it applies, and the check that
 * runs them on an injected clock (docs/frameworks.md §Agreement status machine, §Agreement contracts and milestones).
 */

const CREATED = '2027-01-20T10:00:00+02:00';
const BANNED = '2027-02-01T10:00:00+02:00';
const BAN_DUE = '2027-05-03T00:00:00+03:00';
const PERIOD_END = '2028-02-05T00:00:00+02:00';

const activation = (status = 'scheduled') => ({
  id: 'm-activation',
  type: 'activation',
  status,
  dueDate: PERIOD_END,
  dateModified: CREATED,
});

function anAgreement(data: Record<string, unknown> = {}): ObjectDoc {
  return {
    data: {
      id: 'a'.repeat(32),
      status: 'active',
      period: { startDate: CREATED, endDate: PERIOD_END },
      contracts: [
        { id: 'c-active', status: 'active', milestones: [activation()], date: CREATED, dateModified: CREATED },
        {
          id: 'c-suspended',
          status: 'suspended',
          milestones: [activation(), { id: 'm-ban', type: 'ban', status: 'scheduled', dueDate: BAN_DUE, dateModified: BANNED }],
          date: BANNED,
          dateModified: BANNED,
        },
      ],
      dateModified: BANNED,
      ...data,
    },
  };
}

const stored = (doc: ObjectDoc): Stored => ({ kind: 'agreements', id: doc.data.id, rev: 2, seq: 1, doc });
const session = {} as StoreSession;
const docOf = (change: Change) => change.doc as ObjectDoc;
const contract = (doc: ObjectDoc, id: string) => (doc.data.contracts as ObjectDoc['data'][]).find((c) => c.id === id)!;

t.test("an active agreement's events: its period's end, and each suspended contract's ban", async (t) => {
  t.same(
    agreementEvents(anAgreement()).map((e) => e.due),
    [PERIOD_END, BAN_DUE],
  );
  t.equal(withAgreementNextCheck(anAgreement()).data.next_check, BAN_DUE, 'next_check is the earliest');
});

t.test('without a suspended contract next_check is the period end; a scheduled activation milestone adds no event', async (t) => {
  const agreement = anAgreement({ contracts: [{ id: 'c', status: 'active', milestones: [activation()] }] });
  t.same(
    agreementEvents(agreement).map((e) => e.due),
    [PERIOD_END],
  );
  t.equal(withAgreementNextCheck(agreement).data.next_check, PERIOD_END);
});

t.test('a terminated agreement has no events and loses next_check', async (t) => {
  const agreement = anAgreement({ status: 'terminated', next_check: BAN_DUE });
  t.same(agreementEvents(agreement), []);
  t.notOk('next_check' in withAgreementNextCheck(agreement).data);
});

t.test('the ban coming due makes the contract active, its ban met, dated now with the agreement', async (t) => {
  const agreement = anAgreement();
  const now = at(BAN_DUE);
  agreementEvents(agreement)[1].apply(agreement, now);
  t.match(contract(agreement, 'c-suspended'), {
    status: 'active',
    date: BAN_DUE,
    dateModified: BAN_DUE,
    milestones: [{ status: 'scheduled' }, { id: 'm-ban', status: 'met', dateMet: BAN_DUE, dateModified: BAN_DUE }],
  });
  t.equal(agreement.data.dateModified, BAN_DUE);
  t.equal(contract(agreement, 'c-active').dateModified, CREATED, 'the other contract is untouched');
});

t.test('the period end terminates the agreement', async (t) => {
  const agreement = anAgreement();
  agreementEvents(agreement)[0].apply(agreement, at(PERIOD_END));
  t.equal(agreement.data.status, 'terminated');
});

t.test('the check before anything is due changes nothing', async (t) => {
  const clock = new ManualClock(at('2027-05-02T23:59:59+03:00'));
  t.same(await agreementCheck(session, stored(anAgreement()), clock.now()), []);
});

t.test('the check at the ban lifts it and moves next_check to the period end', async (t) => {
  const clock = new ManualClock(at(BAN_DUE));
  const [change, ...rest] = await agreementCheck(session, stored(anAgreement()), clock.now());
  t.same(rest, []);
  const after = docOf(change);
  t.equal(contract(after, 'c-suspended').status, 'active');
  t.match(after.data, { status: 'active', dateModified: BAN_DUE, next_check: PERIOD_END });
});

t.test('a late run past the period end terminates the agreement, the contracts keeping their statuses', async (t) => {
  const clock = new ManualClock(at(BAN_DUE));
  clock.advance(400 * 86_400_000);
  const [change] = await agreementCheck(session, stored(anAgreement()), clock.now());
  const after = docOf(change);
  t.equal(after.data.status, 'terminated');
  t.notOk('next_check' in after.data);
  t.equal(contract(after, 'c-suspended').status, 'suspended', 'CS-20115: the ban is not lifted');
});
