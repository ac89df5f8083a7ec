import t from 'tap';
import { at, working, calendar } from './fixtures';
import { formatKyiv } from '../../../src/time/kyiv';
import {
  clarificationsUntil,
  dayKindWord,
  enquiryPeriodBeforeTenderEnd,
  minimumPeriodEnd,
  shouldStartAfter,
} from '../../../src/time/tender-periods';

t.test('belowThreshold: clarificationsUntil of enquiry end 2027-01-08 (Friday) is 2027-01-09 (HEAD docs)', async (t) => {
  t.equal(formatKyiv(clarificationsUntil(at('2027-01-08T00:00:00+02:00'), working(1))), '2027-01-09T00:00:00+02:00');
});

t.test('belowThreshold: clarificationsUntil of enquiry end 2023-10-17T00:00+02:00 is 2023-10-19T00:00+03:00 (spec era)', async (t) => {
  t.equal(formatKyiv(clarificationsUntil(at('2023-10-17T00:00:00+02:00'), working(1))), '2023-10-19T00:00:00+03:00');
});

t.test('belowThreshold: an enquiry period from 2027-01-01 must end no earlier than 2027-01-06 (3 working days)', async (t) => {
  t.equal(formatKyiv(minimumPeriodEnd(at('2027-01-01T00:00:00+02:00'), working(3))), '2027-01-06T00:00:00+02:00');
});

t.test('belowThreshold: a tender period from 2027-01-08 must end no earlier than 2027-01-12 (2 working days)', async (t) => {
  t.equal(formatKyiv(minimumPeriodEnd(at('2027-01-08T00:00:00+02:00'), working(2))), '2027-01-12T00:00:00+02:00');
});

t.test('belowThreshold spec era: an enquiry period from 2023-10-10T01:00+03:00 must end no earlier than 2023-10-14', async (t) => {
  t.equal(formatKyiv(minimumPeriodEnd(at('2023-10-10T01:00:00+03:00'), working(3))), '2023-10-14T00:00:00+03:00');
});

t.test('competitiveOrdering long: a tender period from 2027-01-01 must end no earlier than 2027-01-08 (7 calendar days)', async (t) => {
  t.equal(formatKyiv(minimumPeriodEnd(at('2027-01-01T00:00:00+02:00'), calendar(7))), '2027-01-08T00:00:00+02:00');
});

t.test('competitiveOrdering long: tender end 2027-01-16 → enquiry end 01-13, clarificationsUntil 01-16 (HEAD docs)', async (t) => {
  const period = enquiryPeriodBeforeTenderEnd(
    { startDate: at('2027-01-01T00:00:00+02:00'), endDate: at('2027-01-16T00:00:00+02:00') },
    calendar(3),
    calendar(3),
  );
  t.same(
    [formatKyiv(period.startDate), formatKyiv(period.endDate), formatKyiv(period.clarificationsUntil)],
    ['2027-01-01T00:00:00+02:00', '2027-01-13T00:00:00+02:00', '2027-01-16T00:00:00+02:00'],
  );
});

t.test(
  'competitiveOrdering spec era: tender end 2023-10-25T00:00+02:00 → enquiry end 10-22, clarificationsUntil 10-25 (+03:00)',
  async (t) => {
    const period = enquiryPeriodBeforeTenderEnd(
      { startDate: at('2023-10-10T01:00:00+03:00'), endDate: at('2023-10-25T00:00:00+02:00') },
      calendar(3),
      calendar(3),
    );
    t.same(
      [formatKyiv(period.startDate), formatKyiv(period.endDate), formatKyiv(period.clarificationsUntil)],
      ['2023-10-10T01:00:00+03:00', '2023-10-22T00:00:00+03:00', '2023-10-25T00:00:00+03:00'],
    );
  },
);

t.test('shouldStartAfter ceils a time of day to the next Kyiv midnight', async (t) => {
  t.equal(formatKyiv(shouldStartAfter(at('2027-01-16T00:00:11+02:00'))), '2027-01-17T00:00:00+02:00');
});

t.test('shouldStartAfter keeps an exact Kyiv midnight', async (t) => {
  t.equal(formatKyiv(shouldStartAfter(at('2027-01-15T00:00:00+02:00'))), '2027-01-15T00:00:00+02:00');
});

t.test('shouldStartAfter of a client end at a foreign offset: 2023-10-25T00:00+02:00 → 2023-10-26T00:00+03:00 (spec era)', async (t) => {
  t.equal(formatKyiv(shouldStartAfter(at('2023-10-25T00:00:00+02:00'))), '2023-10-26T00:00:00+03:00');
});

t.test('duration errors say business for working days and calendar otherwise', async (t) => {
  t.equal(dayKindWord(working(2)), 'business');
  t.equal(dayKindWord(calendar(7)), 'calendar');
});
