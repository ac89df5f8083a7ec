import t from 'tap';
import Joi from 'joi';
import { classificationSchema } from '../../../../src/domain/core/organization.schema';
import type { Classification } from '../../../../src/domain/core/shapes';

/**
 * A schema built as `Joi.object<T, true>` is held to its type (docs/architecture.md §Domain types): the type check
 * (`npm test` runs `tsc` first) refuses each schema marked below, so a member cannot be added to a type and not to
 * its schema, or the reverse.
 */
const text = () => Joi.string().min(1);

// @ts-expect-error `description` is in the type and not in the schema.
const missing = Joi.object<Classification, true>({ scheme: text(), id: text(), uri: text() });
// @ts-expect-error `url` is in the schema and not in the type.
const extra = Joi.object<Classification, true>({ scheme: text(), id: text(), description: text(), uri: text(), url: text() });
// @ts-expect-error `id` is a text in the type and a number in the schema.
const wrongKind = Joi.object<Classification, true>({ scheme: text(), id: Joi.number(), description: text(), uri: text() });

t.test('schemas a type refuses still build: the guard is the type check alone', async (t) => {
  for (const schema of [missing, extra, wrongKind]) t.ok(Joi.isSchema(schema));
});

t.test("a framework's classification refuses `uri`, which its type leaves out", async (t) => {
  const { error } = classificationSchema.validate({ scheme: 'ДК021', id: '44617100-9', description: 'Cartons', uri: 'http://x' });
  t.match(error?.details[0], { type: 'object.unknown', path: ['uri'] });
});
