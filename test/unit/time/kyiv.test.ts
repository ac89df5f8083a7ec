import t from 'tap';
import { formatKyiv, fromKyivParts, fromKyivWallMs, kyivIsoDate, kyivIsoOf, kyivParts, parseIsoDate } from '../../../src/time/kyiv';

t.test('formatKyiv prints winter time with +02:00 and no fraction at whole seconds', async (t) => {
  t.equal(formatKyiv(new Date('2026-12-31T22:00:00Z')), '2027-01-01T00:00:00+02:00');
});

t.test('formatKyiv prints summer time with +03:00', async (t) => {
  t.equal(formatKyiv(new Date('2023-10-09T22:00:00Z')), '2023-10-10T01:00:00+03:00');
});

t.test('formatKyiv prints a non-zero fraction as 6 digits from the milliseconds', async (t) => {
  t.equal(formatKyiv(new Date('2027-01-18T11:09:55.701Z')), '2027-01-18T13:09:55.701000+02:00');
  t.equal(formatKyiv(new Date('2027-01-18T11:09:55.007Z')), '2027-01-18T13:09:55.007000+02:00');
});

t.test('formatKyiv switches offset at the DST changes (2027-03-28 03:00, 2027-10-31 04:00)', async (t) => {
  t.equal(formatKyiv(new Date('2027-03-28T00:59:59Z')), '2027-03-28T02:59:59+02:00');
  t.equal(formatKyiv(new Date('2027-03-28T01:00:00Z')), '2027-03-28T04:00:00+03:00');
  t.equal(formatKyiv(new Date('2027-10-31T00:59:59Z')), '2027-10-31T03:59:59+03:00');
  t.equal(formatKyiv(new Date('2027-10-31T01:00:00Z')), '2027-10-31T03:00:00+02:00');
});

t.test('parseIsoDate keeps an explicit offset', async (t) => {
  t.equal(parseIsoDate('2023-10-25T00:00:00+02:00')?.toISOString(), '2023-10-24T22:00:00.000Z');
  t.equal(parseIsoDate('2027-01-01T00:00:00Z')?.toISOString(), '2027-01-01T00:00:00.000Z');
  t.equal(parseIsoDate('2027-01-01T00:00:00-0530')?.toISOString(), '2027-01-01T05:30:00.000Z');
});

t.test('parseIsoDate localizes a naive value to Kyiv (winter +02:00, summer +03:00)', async (t) => {
  t.equal(parseIsoDate('2027-01-01T00:00:00')?.toISOString(), '2026-12-31T22:00:00.000Z');
  t.equal(parseIsoDate('2027-07-01T10:00')?.toISOString(), '2027-07-01T07:00:00.000Z');
});

t.test('parseIsoDate reads a bare date as Kyiv midnight', async (t) => {
  t.equal(parseIsoDate('2027-01-15')?.toISOString(), '2027-01-14T22:00:00.000Z');
});

t.test('parseIsoDate truncates microseconds to milliseconds', async (t) => {
  t.equal(parseIsoDate('2027-01-18T13:09:55.701999+02:00')?.toISOString(), '2027-01-18T11:09:55.701Z');
});

t.test('parseIsoDate round-trips through formatKyiv', async (t) => {
  const text = '2027-01-15T13:09:55.701000+02:00';
  t.equal(formatKyiv(parseIsoDate(text)!), text);
});

t.test('parseIsoDate rejects malformed and impossible dates → null', async (t) => {
  for (const bad of [
    '',
    'tomorrow',
    '2027-13-01T00:00:00',
    '2027-02-29T00:00:00',
    '2027-01-01T24:00:00',
    '2027-01-01T00:00:00+25:00',
    '2027-1-1',
  ]) {
    t.equal(parseIsoDate(bad), null, bad);
  }
});

t.test('parseIsoDate accepts 29 February of a leap year', async (t) => {
  t.equal(parseIsoDate('2028-02-29T00:00:00+02:00')?.toISOString(), '2028-02-28T22:00:00.000Z');
});

t.test('a naive time in the autumn repeated hour takes the standard offset, as pytz localize', async (t) => {
  t.equal(formatKyiv(parseIsoDate('2027-10-31T03:30:00')!), '2027-10-31T03:30:00+02:00');
});

t.test('a naive time in the spring gap is read with the standard offset, as pytz localize', async (t) => {
  t.equal(parseIsoDate('2027-03-28T03:30:00')?.toISOString(), '2027-03-28T01:30:00.000Z');
});

t.test('kyivParts gives the Kyiv wall clock with an ISO weekday', async (t) => {
  t.same(kyivParts(new Date('2027-01-02T22:30:15.250Z')), {
    year: 2027,
    month: 1,
    day: 3,
    hour: 0,
    minute: 30,
    second: 15,
    millisecond: 250,
    weekday: 7,
  });
});

t.test('fromKyivParts builds the instant of a Kyiv wall-clock reading', async (t) => {
  t.equal(formatKyiv(fromKyivParts({ year: 2023, month: 4, day: 16 })), '2023-04-16T00:00:00+03:00');
});

t.test('fromKyivWallMs reads a wall-clock count as Kyiv time', async (t) => {
  t.equal(formatKyiv(fromKyivWallMs(Date.UTC(2027, 0, 15))), '2027-01-15T00:00:00+02:00');
});

t.test('kyivIsoDate is the Kyiv calendar date, not the UTC one', async (t) => {
  t.equal(kyivIsoDate(new Date('2026-12-31T22:00:00Z')), '2027-01-01');
});

t.test('kyivIsoOf: a date without an offset is Kyiv time, as the reference localises it', async (t) => {
  t.equal(kyivIsoOf('2026-12-05T01:52:00'), '2026-12-05T01:52:00+02:00');
  t.equal(kyivIsoOf('2026-07-05T01:52:00'), '2026-07-05T01:52:00+03:00');
  t.equal(kyivIsoOf('2026-12-05'), '2026-12-05T00:00:00+02:00');
});

t.test('kyivIsoOf: a date in UTC or another offset is the same instant in Kyiv time, its fraction to the µs', async (t) => {
  t.equal(kyivIsoOf('2026-12-05T01:52:00Z'), '2026-12-05T03:52:00+02:00');
  t.equal(kyivIsoOf('2026-07-05T01:52:00.5Z'), '2026-07-05T04:52:00.500000+03:00');
  t.equal(kyivIsoOf('2026-12-05T01:52:00.123456789-05:00'), '2026-12-05T08:52:00.123456+02:00');
  t.equal(kyivIsoOf('2026-12-05T01:52+0200'), '2026-12-05T01:52:00+02:00');
  t.equal(kyivIsoOf('2027-01-18T13:09:55.701000+02:00'), '2027-01-18T13:09:55.701000+02:00', 'a Kyiv date as it is');
  t.equal(kyivIsoOf('2023-10-17T00:00+02:00'), '2023-10-17T00:00:00+02:00', 'either Kyiv offset is kept, as the reference keeps it');
  t.equal(kyivIsoOf('yesterday'), null);
});
