import t from 'tap';
import { applyMask, HIDDEN_DATE, HIDDEN_TEXT } from '../../../src/masking/mask';
import { orgPaths } from '../../../src/masking/fragments';

t.test('text, _en, delivery dates and coordinates get their replacement values', async (t) => {
  const doc = {
    items: [
      {
        deliveryDate: { startDate: '2026-01-01T00:00:00+02:00' },
        deliveryLocation: { latitude: 50.1, longitude: 30.5 },
        description_en: 'x',
      },
    ],
  };
  const masked = applyMask(doc, [
    'items[*].deliveryDate.startDate',
    'items[*].deliveryLocation.latitude',
    'items[*].deliveryLocation.longitude',
    'items[*].description_en',
  ]);
  t.same(masked.items[0], {
    deliveryDate: { startDate: HIDDEN_DATE },
    deliveryLocation: { latitude: 0, longitude: 0 },
    description_en: 'Hidden',
  });
});

t.test('absent fields stay absent and the input is not modified', async (t) => {
  const doc = { suppliers: [{ name: 'Acme' }] };
  const masked = applyMask(doc, orgPaths('suppliers[*]'));
  t.same(masked, { suppliers: [{ name: HIDDEN_TEXT }] });
  t.same(doc, { suppliers: [{ name: 'Acme' }] });
});

t.test('.. finds a key at any depth, inside arrays too', async (t) => {
  const doc = { complaints: [{ title: 'a' }], awards: [{ complaints: [{ title: 'b', status: 'x' }] }] };
  const masked = applyMask(doc, ['..complaints[*].title']);
  t.same(masked, { complaints: [{ title: HIDDEN_TEXT }], awards: [{ complaints: [{ title: HIDDEN_TEXT, status: 'x' }] }] });
});

t.test('objects and arrays at a masked path are left as they are', async (t) => {
  t.same(applyMask({ a: { b: { c: 1 } } }, ['a.b']), { a: { b: { c: 1 } } });
});
