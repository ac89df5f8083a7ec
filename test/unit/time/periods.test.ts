import t from 'tap';
import { at, working, calendar } from './fixtures';
import { formatKyiv } from '../../../src/time/kyiv';
import { calculateDate, calculateFullDate, calculateTenderFullDate, normalizeToMidnight } from '../../../src/time/periods';

t.test('1 working day from Friday 00:00 ends at Saturday 00:00 (the midnight rule)', async (t) => {
  t.equal(formatKyiv(calculateDate(at('2027-01-08T00:00:00+02:00'), working(1))), '2027-01-09T00:00:00+02:00');
});

t.test('without the midnight rule 1 working day from Friday 00:00 ends at Monday 00:00', async (t) => {
  const end = calculateDate(at('2027-01-08T00:00:00+02:00'), working(1), { midnight: false });
  t.equal(formatKyiv(end), '2027-01-11T00:00:00+02:00');
});

t.test('a working-day count from a non-midnight time keeps the time and skips the weekend', async (t) => {
  t.equal(formatKyiv(calculateDate(at('2027-01-08T12:00:00+02:00'), working(1))), '2027-01-11T12:00:00+02:00');
});

t.test('a working-day count starting on a day off starts from 00:00 of the next working day', async (t) => {
  t.equal(formatKyiv(calculateDate(at('2027-01-09T15:00:00+02:00'), working(1))), '2027-01-12T00:00:00+02:00');
});

t.test('1 working day back from Monday 00:00 is Friday 00:00', async (t) => {
  t.equal(formatKyiv(calculateDate(at('2027-01-11T00:00:00+02:00'), working(-1))), '2027-01-08T00:00:00+02:00');
});

t.test('1 working day back from Saturday 10:00 is Friday 00:00', async (t) => {
  t.equal(formatKyiv(calculateDate(at('2027-01-09T10:00:00+02:00'), working(-1))), '2027-01-08T00:00:00+02:00');
});

t.test('working days skip listed holidays (2021-01-07 and 2021-01-08)', async (t) => {
  t.equal(formatKyiv(calculateDate(at('2021-01-06T00:00:00+02:00'), working(2))), '2021-01-12T00:00:00+02:00');
});

t.test('a custom calendar replaces the Ukrainian one', async (t) => {
  const end = calculateDate(at('2027-01-04T00:00:00+02:00'), working(1), { calendar: { daysOff: new Set(['2027-01-04']) } });
  t.equal(formatKyiv(end), '2027-01-06T00:00:00+02:00');
});

t.test('a zero working-day count throws, as dateorro does', async (t) => {
  t.throws(() => calculateDate(at('2027-01-04T00:00:00+02:00'), working(0)), RangeError);
});

t.test('a fractional day count throws', async (t) => {
  t.throws(() => calculateDate(at('2027-01-04T00:00:00+02:00'), calendar(1.5)), RangeError);
});

t.test('calendar days across spring DST keep the Kyiv wall clock: 2023-01-16 + 90d → 2023-04-16T00:00:00+03:00', async (t) => {
  t.equal(formatKyiv(calculateDate(at('2023-01-16T00:00:00+02:00'), calendar(90))), '2023-04-16T00:00:00+03:00');
});

t.test('calendar days across autumn DST keep the Kyiv wall clock: 2027-11-20 − 30d → 2027-10-21T00:00:00+03:00', async (t) => {
  t.equal(formatKyiv(calculateDate(at('2027-11-20T00:00:00+02:00'), calendar(-30))), '2027-10-21T00:00:00+03:00');
});

t.test('working days across spring DST end at Kyiv midnight in summer time', async (t) => {
  const end = calculateFullDate(at('2027-03-19T10:00:00+02:00'), working(10), { ceil: true });
  t.equal(formatKyiv(end), '2027-04-03T00:00:00+03:00');
});

t.test('a result in the spring gap is localized with the standard offset, as pytz localize', async (t) => {
  const end = calculateDate(at('2027-03-27T03:30:00+02:00'), calendar(1));
  t.equal(end.toISOString(), '2027-03-28T01:30:00.000Z');
});

t.test('before DST_AWARE_PERIODS_FROM a result keeps the start offset: 2019-03-20 + 30d is 24h-days later', async (t) => {
  const end = calculateDate(at('2019-03-20T00:00:00+02:00'), calendar(30));
  t.equal(end.toISOString(), '2019-04-18T22:00:00.000Z');
});

t.test('normalizeToMidnight floors a time of day to Kyiv midnight', async (t) => {
  t.equal(formatKyiv(normalizeToMidnight(at('2027-01-08T13:09:55.701+02:00'))), '2027-01-08T00:00:00+02:00');
});

t.test('normalizeToMidnight with ceil moves to the next Kyiv midnight', async (t) => {
  t.equal(formatKyiv(normalizeToMidnight(at('2027-01-08T13:09:55+02:00'), true)), '2027-01-09T00:00:00+02:00');
});

t.test('normalizeToMidnight leaves an exact Kyiv midnight unchanged, even with ceil', async (t) => {
  t.equal(formatKyiv(normalizeToMidnight(at('2027-01-08T00:00:00+02:00'), true)), '2027-01-08T00:00:00+02:00');
});

t.test('normalizeToMidnight reads a foreign offset in Kyiv time first: 2023-10-25T00:00+02:00 is 01:00 Kyiv', async (t) => {
  t.equal(formatKyiv(normalizeToMidnight(at('2023-10-25T00:00:00+02:00'))), '2023-10-25T00:00:00+03:00');
  t.equal(formatKyiv(normalizeToMidnight(at('2023-10-25T00:00:00+02:00'), true)), '2023-10-26T00:00:00+03:00');
});

t.test('calculateFullDate without ceil floors before adding', async (t) => {
  t.equal(formatKyiv(calculateFullDate(at('2027-01-08T12:00:00+02:00'), calendar(3))), '2027-01-11T00:00:00+02:00');
});

t.test('calculateFullDate with ceil starts counting from the next midnight', async (t) => {
  t.equal(formatKyiv(calculateFullDate(at('2027-01-08T12:00:00+02:00'), calendar(3), { ceil: true })), '2027-01-12T00:00:00+02:00');
});

t.test('calculateTenderFullDate ceils a forward count', async (t) => {
  t.equal(formatKyiv(calculateTenderFullDate(at('2027-01-08T12:00:00+02:00'), calendar(3))), '2027-01-12T00:00:00+02:00');
});

t.test('calculateTenderFullDate floors a backward count', async (t) => {
  t.equal(formatKyiv(calculateTenderFullDate(at('2027-01-08T12:00:00+02:00'), calendar(-3))), '2027-01-05T00:00:00+02:00');
});
