import Joi from 'joi';
import t from 'tap';
import { acceleratedDate, accelerationOf, sandboxDetailsKeys } from '../../src/time/acceleration';

const sandbox = { sandboxMode: true };
const live = { sandboxMode: false };

t.test('SANDBOX_MODE with procurementMethodDetails "quick, accelerator=1440" → 1440', async (t) => {
  t.equal(accelerationOf({ procurementMethodDetails: 'quick, accelerator=1440' }, sandbox), 1440);
});

t.test('SANDBOX_MODE with frameworkDetails "quick, accelerator=2880" → 2880', async (t) => {
  t.equal(accelerationOf({ frameworkDetails: 'quick, accelerator=2880' }, sandbox), 2880);
});

t.test('without SANDBOX_MODE the accelerator is ignored → 1', async (t) => {
  t.equal(accelerationOf({ procurementMethodDetails: 'quick, accelerator=1440' }, live), 1);
});

t.test('"accelerator=N" at the very start does not match the reference regex → 1', async (t) => {
  t.equal(accelerationOf({ procurementMethodDetails: 'accelerator=1440' }, sandbox), 1);
});

t.test('accelerator=0 or no details → 1', async (t) => {
  t.equal(accelerationOf({ procurementMethodDetails: 'quick, accelerator=0' }, sandbox), 1);
  t.equal(accelerationOf({}, sandbox), 1);
});

t.test('accelerated 3 working days at 1440 → start + 3 minutes exactly, no normalization', async (t) => {
  const start = new Date('2026-10-05T12:34:56.789+03:00');
  t.equal(acceleratedDate(start, { days: 3, working: true }, 1440).getTime() - start.getTime(), 3 * 60_000);
});

t.test('accelerated negative calendar days go back by days / N', async (t) => {
  const start = new Date('2026-10-05T12:00:00+03:00');
  t.equal(acceleratedDate(start, { days: -30, working: false }, 1440).getTime() - start.getTime(), -30 * 60_000);
});

t.test('procurementMethodDetails is a schema key with SANDBOX_MODE and a rogue (unknown) key without it', async (t) => {
  const schema = (config: { sandboxMode: boolean }) =>
    Joi.object({ title: Joi.string(), ...sandboxDetailsKeys('procurementMethodDetails', config) });
  const body = { title: 'x', procurementMethodDetails: 'quick, accelerator=1440' };
  t.equal(schema(sandbox).validate(body).error, undefined);
  t.match(schema(live).validate(body).error?.details[0], { type: 'object.unknown', path: ['procurementMethodDetails'] });
});
