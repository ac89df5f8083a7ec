import t from 'tap';
import { existsSync } from 'node:fs';
import {
  frameworkActivationPeriods,
  frameworkPeriodEndDate,
  frameworkSubmissionsCheckDate,
  qualificationPeriodBounds,
  qualificationPeriodChangeBounds,
  type FrameworkPeriods,
} from '../../../src/time/framework-periods';
import { formatKyiv } from '../../../src/time/kyiv';
import { at } from './fixtures';
import { REFERENCE_DIR, readRecording } from '../../fixtures/reference-recording';

const printed = (periods: FrameworkPeriods) => ({
  enquiryPeriod: {
    startDate: formatKyiv(periods.enquiryPeriod.startDate),
    endDate: formatKyiv(periods.enquiryPeriod.endDate),
    clarificationsUntil: formatKyiv(periods.enquiryPeriod.clarificationsUntil),
  },
  period: { startDate: formatKyiv(periods.period.startDate), endDate: formatKyiv(periods.period.endDate) },
  qualificationPeriodStartDate: formatKyiv(periods.qualificationPeriodStartDate),
});

const recorded = { skip: existsSync(REFERENCE_DIR) ? false : 'reference exchanges not present' };

/** The JSON body of the response half of a recorded reference exchange. */
const recordedResponse = (path: string) => readRecording(path).responseBody;

t.test('activation on Friday 2027-01-01 00:00 → enquiry end 01-15, clarificationsUntil 01-20, period end 2028-01-06', async (t) => {
  const periods = frameworkActivationPeriods(at('2027-01-01T00:00:00+02:00'), at('2028-02-05T00:00:00+02:00'));
  t.same(printed(periods), {
    enquiryPeriod: {
      startDate: '2027-01-01T00:00:00+02:00',
      endDate: '2027-01-15T00:00:00+02:00',
      clarificationsUntil: '2027-01-20T00:00:00+02:00',
    },
    period: { startDate: '2027-01-01T00:00:00+02:00', endDate: '2028-01-06T00:00:00+02:00' },
    qualificationPeriodStartDate: '2027-01-01T00:00:00+02:00',
  });
});

t.test('activation on Sunday 2023-01-01 → enquiry end Saturday 01-14, clarificationsUntil 01-19', async (t) => {
  const { enquiryPeriod } = printed(frameworkActivationPeriods(at('2023-01-01T00:00:00+02:00'), at('2024-02-05T00:00:00+02:00')));
  t.equal(enquiryPeriod.endDate, '2023-01-14T00:00:00+02:00');
  t.equal(enquiryPeriod.clarificationsUntil, '2023-01-19T00:00:00+02:00');
});

t.test('activation during the day counts working days from the next day; period.startDate stays unnormalized', async (t) => {
  const periods = printed(frameworkActivationPeriods(at('2027-01-05T14:30:00+02:00'), at('2028-02-05T00:00:00+02:00')));
  t.equal(periods.enquiryPeriod.startDate, '2027-01-05T14:30:00+02:00');
  t.equal(periods.enquiryPeriod.endDate, '2027-01-20T00:00:00+02:00');
  t.equal(periods.period.startDate, '2027-01-05T14:30:00+02:00');
});

t.test('activation across spring DST → enquiry end 2027-04-03T00:00+03:00, clarificationsUntil 04-08', async (t) => {
  const periods = printed(frameworkActivationPeriods(at('2027-03-19T10:00:00+02:00'), at('2027-11-20T00:00:00+02:00')));
  t.equal(periods.enquiryPeriod.endDate, '2027-04-03T00:00:00+03:00');
  t.equal(periods.enquiryPeriod.clarificationsUntil, '2027-04-08T00:00:00+03:00');
  t.equal(periods.period.endDate, '2027-10-21T00:00:00+03:00');
});

t.test(
  'activation over the 2021/22 holidays skips 12-27, 01-03 and 01-07 → enquiry end 2022-01-13, clarificationsUntil 01-18',
  async (t) => {
    const { enquiryPeriod } = printed(frameworkActivationPeriods(at('2021-12-24T10:00:00+02:00'), at('2023-01-05T00:00:00+02:00')));
    t.equal(enquiryPeriod.endDate, '2022-01-13T00:00:00+02:00');
    t.equal(enquiryPeriod.clarificationsUntil, '2022-01-18T00:00:00+02:00');
  },
);

t.test('clarificationUntilDuration from config sets the working days after enquiry end', async (t) => {
  const periods = frameworkActivationPeriods(at('2027-01-01T00:00:00+02:00'), at('2028-02-05T00:00:00+02:00'), {
    clarificationUntilDuration: 1,
  });
  t.equal(formatKyiv(periods.enquiryPeriod.clarificationsUntil), '2027-01-16T00:00:00+02:00');
});

t.test('a re-run keeps stored enquiry dates and period.startDate and derives the rest again', async (t) => {
  const periods = frameworkActivationPeriods(at('2027-01-17T00:00:00+02:00'), at('2027-03-08T00:00:00+02:00'), {
    stored: {
      enquiryPeriod: { startDate: at('2027-01-01T00:00:00+02:00'), endDate: at('2027-01-15T00:00:00+02:00') },
      periodStartDate: at('2027-01-01T00:00:00+02:00'),
    },
  });
  t.same(printed(periods), {
    enquiryPeriod: {
      startDate: '2027-01-01T00:00:00+02:00',
      endDate: '2027-01-15T00:00:00+02:00',
      clarificationsUntil: '2027-01-20T00:00:00+02:00',
    },
    period: { startDate: '2027-01-01T00:00:00+02:00', endDate: '2027-02-06T00:00:00+02:00' },
    qualificationPeriodStartDate: '2027-01-01T00:00:00+02:00',
  });
});

t.test('period.endDate is midnight 30 calendar days before a non-midnight qualification end', async (t) => {
  t.equal(formatKyiv(frameworkPeriodEndDate(at('2028-02-05T15:00:00+02:00'))), '2028-01-06T00:00:00+02:00');
});

t.test('the submissions check comes 15 days after ceil(period.startDate)', async (t) => {
  t.equal(formatKyiv(frameworkSubmissionsCheckDate(at('2027-01-01T00:00:00+02:00'))), '2027-01-16T00:00:00+02:00');
  t.equal(formatKyiv(frameworkSubmissionsCheckDate(at('2027-01-01T09:00:00+02:00'))), '2027-01-17T00:00:00+02:00');
});

t.test('activation bounds: qualification end from ceil(start)+365d to ceil(start)+1461d', async (t) => {
  const bounds = qualificationPeriodBounds(at('2027-01-01T10:00:00+02:00'));
  t.equal(formatKyiv(bounds.earliest), '2028-01-02T00:00:00+02:00');
  t.equal(formatKyiv(bounds.latest), '2031-01-02T00:00:00+02:00');
});

t.test('change bounds: qualification end from ceil(now)+30d to ceil(now)+1461d', async (t) => {
  const bounds = qualificationPeriodChangeBounds(at('2027-01-17T00:00:00+02:00'));
  t.equal(formatKyiv(bounds.earliest), '2027-02-16T00:00:00+02:00');
  t.equal(formatKyiv(bounds.latest), '2031-01-17T00:00:00+02:00');
});

t.test(
  'recorded DPS activation: periods, clarificationsUntil and next_check follow from date and qualification end',
  recorded,
  async (t) => {
    const { data } = recordedResponse('frameworks/dps/tutorial/patch-framework-draft-to-active.http');
    const periods = printed(frameworkActivationPeriods(at(data.date), at(data.qualificationPeriod.endDate)));
    t.same(periods.enquiryPeriod, data.enquiryPeriod);
    t.same(periods.period, data.period);
    t.equal(periods.qualificationPeriodStartDate, data.qualificationPeriod.startDate);
    t.equal(formatKyiv(frameworkSubmissionsCheckDate(at(data.period.startDate))), data.next_check, 'next_check is the submissions check');
  },
);

t.test('recorded questions framework (Sunday activation): periods and next_check match', recorded, async (t) => {
  const { data } = recordedResponse('frameworks/basic-actions/http/questions/get-framework.http');
  const periods = printed(frameworkActivationPeriods(at(data.enquiryPeriod.startDate), at(data.qualificationPeriod.endDate)));
  t.same(periods.enquiryPeriod, data.enquiryPeriod);
  t.same(periods.period, data.period);
  t.equal(formatKyiv(frameworkSubmissionsCheckDate(at(data.period.startDate))), data.next_check, 'next_check is the submissions check');
});

t.test('recorded framework after a qualification-period change: period.endDate is recomputed from the new end', recorded, async (t) => {
  const { data } = recordedResponse('frameworks/dps/tutorial/get-framework-after-qualification-period-modified.http');
  t.equal(formatKyiv(frameworkPeriodEndDate(at(data.qualificationPeriod.endDate))), data.period.endDate);
});

t.test('recorded change requests: accepted end inside the change bounds, refused ends outside', recorded, async (t) => {
  const now = at(recordedResponse('frameworks/dps/tutorial/patch-framework-active-qualification-period.http').data.date);
  const bounds = qualificationPeriodChangeBounds(now);
  const inside = (end: Date) => end >= bounds.earliest && end <= bounds.latest;
  t.equal(inside(at('2027-03-08T00:00:00+02:00')), true, 'accepted change');
  t.equal(inside(at('2027-02-01T00:00:00+02:00')), false, 'too soon');
  t.equal(inside(at('2031-02-25T00:00:00+02:00')), false, 'too late');
});
