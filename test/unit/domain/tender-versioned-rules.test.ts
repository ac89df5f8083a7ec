import t from 'tap';
import { ApiError } from '../../../src/http/errors';
import { checkVersioned, CONTRACT_VERSIONED_RULES, TENDER_VERSIONED_RULES } from '../../../src/domain/core/versioned-rules';

const innItem = { classification: { id: '33600000-6' }, additionalClassifications: [] };
const tender = { mainProcurementCategory: 'goods', milestones: [{}], items: [innItem] };

const failure = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return (err as ApiError).errors[0];
  }
  return null;
};

t.test('an object created before CPV_336_INN_FROM is not held to the INN rule', async (t) => {
  t.equal(
    failure(() => checkVersioned(TENDER_VERSIONED_RULES, tender, '2019-02-26T23:59:59+02:00')),
    null,
  );
});

t.test('an object created at CPV_336_INN_FROM is held to the INN rule', async (t) => {
  t.same(
    failure(() => checkVersioned(TENDER_VERSIONED_RULES, tender, '2019-02-27T00:00:00+02:00')),
    {
      location: 'body',
      name: 'items',
      description: ['Item with classification.id=33600000-6 have to contain exactly one additionalClassifications with scheme=INN'],
    },
  );
});

t.test('mainProcurementCategory is required only from MPC_REQUIRED_FROM', async (t) => {
  const noMpc = { milestones: [{}], items: [] };
  t.equal(
    failure(() => checkVersioned(TENDER_VERSIONED_RULES, noMpc, '2019-08-22T23:59:59+00:00')),
    null,
  );
  t.match(
    failure(() => checkVersioned(TENDER_VERSIONED_RULES, noMpc, '2019-08-23T00:00:00+00:00')),
    { name: 'mainProcurementCategory' },
  );
});

t.test('milestones are required only from MILESTONES_VALIDATION_FROM', async (t) => {
  const noMilestones = { mainProcurementCategory: 'goods', items: [] };
  t.equal(
    failure(() => checkVersioned(TENDER_VERSIONED_RULES, noMilestones, '2019-08-22T00:00:00+00:00')),
    null,
  );
  t.match(
    failure(() => checkVersioned(TENDER_VERSIONED_RULES, noMilestones, '2019-08-23T00:00:00+00:00')),
    { name: 'milestones' },
  );
});

t.test('supplier scale is required only from ORGANIZATION_SCALE_FROM', async (t) => {
  const contract = { suppliers: [{ name: 'x' }] };
  t.equal(
    failure(() => checkVersioned(CONTRACT_VERSIONED_RULES, contract, '2019-05-16T19:29:59+03:00')),
    null,
  );
  t.same(
    failure(() => checkVersioned(CONTRACT_VERSIONED_RULES, contract, '2019-05-16T19:30:00+03:00')),
    {
      location: 'body',
      name: 'suppliers',
      description: [{ scale: ['This field is required.'] }],
    },
  );
});

t.test('the minimal step range applies only from MINIMAL_STEP_VALIDATION_FROM', async (t) => {
  const wide = { ...tender, items: [], value: { amount: 500 }, minimalStep: { amount: 100 } };
  t.equal(
    failure(() => checkVersioned(TENDER_VERSIONED_RULES, wide, '2020-09-30T23:59:59+03:00')),
    null,
  );
  t.match(
    failure(() => checkVersioned(TENDER_VERSIONED_RULES, wide, '2020-10-01T00:00:00+03:00')),
    { name: 'data' },
  );
});
