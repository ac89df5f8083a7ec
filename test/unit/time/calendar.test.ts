import t from 'tap';
import { isWorkingWallDay, ukrainianCalendar, type WorkingCalendar } from '../../../src/time/calendar';

/** The day of a date (`YYYY-MM-DD`), as the wall-clock reading of its midnight. */
const isWorkingDate = (isoDate: string, calendar?: WorkingCalendar) => isWorkingWallDay(Date.parse(`${isoDate}T00:00:00Z`), calendar);

t.test('the shipped calendar holds the 97 days off of standards 1.0.274, the last 2022-06-28', async (t) => {
  const days = [...ukrainianCalendar.daysOff];
  t.equal(days.length, 97);
  t.equal(days[0], '2015-05-01');
  t.equal(days.at(-1), '2022-06-28');
});

t.test('an ordinary weekday is a working day', async (t) => {
  t.equal(isWorkingDate('2027-01-04'), true);
});

t.test('Saturday and Sunday are days off', async (t) => {
  t.equal(isWorkingDate('2027-01-02'), false);
  t.equal(isWorkingDate('2027-01-03'), false);
});

t.test('a listed holiday on a weekday is a day off', async (t) => {
  t.equal(isWorkingDate('2021-01-07'), false);
});

t.test('holidays after martial law began are working days (2023-01-02, 2024-12-25)', async (t) => {
  t.equal(isWorkingDate('2023-01-02'), true);
  t.equal(isWorkingDate('2024-12-25'), true);
});

t.test('a worked weekend from weekends_on.json stays a day off (the reference does not load it)', async (t) => {
  t.equal(isWorkingDate('2022-03-12'), false);
});

t.test('a custom calendar adds its own days off', async (t) => {
  t.equal(isWorkingDate('2027-01-04', { daysOff: new Set(['2027-01-04']) }), false);
});

t.test('a wall-clock reading answers for its whole day: weekends and listed days off, 1969 to 2030', async (t) => {
  const DAY = 86_400_000;
  let disagreements = 0;
  for (let ms = Date.UTC(1969, 0, 1); ms < Date.UTC(2030, 0, 1); ms += DAY) {
    const date = new Date(ms);
    const expected = date.getUTCDay() % 6 !== 0 && !ukrainianCalendar.daysOff.has(date.toISOString().slice(0, 10));
    if (isWorkingWallDay(ms) !== expected || isWorkingWallDay(ms + DAY - 1) !== expected) disagreements += 1;
  }
  t.equal(disagreements, 0);
});
