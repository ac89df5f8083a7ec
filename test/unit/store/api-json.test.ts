import t from 'tap';
import { apiJson, withFloats } from '../../../src/store/api-json';

t.test('whole float members are written with a decimal point; other numbers and strings as they were', async (t) => {
  const doc = {
    value: { amount: 500, amountNet: 450, currency: 'UAH' },
    items: [{ quantity: 5, unit: { code: 'KGM' } }, { quantity: -1 }],
    milestones: [{ percentage: 45.55, duration: { days: 2 }, sequenceNumber: 0 }],
    minimalStep: { amount: 0 },
    description: '{"amount":5,"quantity":3}',
    title: 'amount',
    huge: { amount: 1e21 },
  };
  t.equal(
    apiJson(doc),
    '{"value":{"amount":500.0,"amountNet":450.0,"currency":"UAH"},"items":[{"quantity":5.0,"unit":{"code":"KGM"}},{"quantity":-1.0}],' +
      '"milestones":[{"percentage":45.55,"duration":{"days":2},"sequenceNumber":0}],"minimalStep":{"amount":0.0},' +
      '"description":"{\\"amount\\":5,\\"quantity\\":3}","title":"amount","huge":{"amount":1e+21}}',
  );
  t.same(JSON.parse(apiJson(doc)), doc, 'the same values');
});

t.test('pretty JSON gets floats too', async (t) => {
  t.equal(apiJson({ value: { amount: 7 } }, 4), '{\n    "value": {\n        "amount": 7.0\n    }\n}');
});

t.test('text already written with floats is left as it is', async (t) => {
  t.equal(withFloats('{"amount":500.0,"quantity":1.5}'), '{"amount":500.0,"quantity":1.5}');
});
