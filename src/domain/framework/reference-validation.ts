import Joi from 'joi';
import { ApiError, apiError, fromJoi } from '../../http/errors';
import { parseIsoDate } from '../../time/kyiv';

/**
 * Validates a request part with a joi schema and answers with the reference's schematics texts
 * (notes/platform.md §4.7): `This field is required.`, `Rogue field`, `Value must be one of [...]`.
 */
export function validated<T>(schema: Joi.Schema, value: unknown): T {
  const { error, value: out } = schema.validate(value, { abortEarly: false, convert: false });
  if (error) {
    for (const detail of error.details) detail.message = schematicsText(detail);
    throw fromJoi(error);
  }
  return out as T;
}

function schematicsText(detail: Joi.ValidationErrorItem): string {
  const ctx = detail.context ?? {};
  switch (detail.type) {
    case 'any.required':
      return 'This field is required.';
    case 'object.unknown':
      return 'Rogue field';
    case 'any.only':
      return `Value must be one of [${(ctx.valids as unknown[]).map((v) => `'${String(v)}'`).join(', ')}].`;
    case 'object.base':
      return 'Please use a mapping for this field.';
    case 'array.base':
      return 'Could not interpret the value as a list.';
    case 'array.min':
      return 'Please provide at least 1 item.';
    case 'string.base':
      return `Couldn't interpret '${String(ctx.value)}' as string.`;
    case 'string.empty':
      return 'String value is too short.';
    case 'boolean.base':
      return 'Must be either true or false.';
    case 'number.base':
      return `Number '${String(ctx.value)}' failed to convert to a decimal.`;
    case 'date.iso':
      return `Could not parse ${String(ctx.value)}. Should be ISO8601.`;
    case 'string.email':
      return 'Not a well-formed email address.';
    default:
      return detail.message;
  }
}

/** An ISO 8601 date-time string, kept as the client wrote it. */
export const isoDate = () =>
  Joi.string().custom((value: string, helpers) => (parseIsoDate(value) ? value : helpers.error('date.iso', { value })));

/**
 * Config members are checked by JSON schema in the reference: texts as jsonschema prints them, the
 * name `config` for an unknown key and `config.<key>` for a bad value (notes/frameworks.md §1.1).
 */
export function validatedConfig<T>(schema: Joi.Schema, value: unknown): T {
  const { error, value: out } = schema.validate(value ?? {}, { abortEarly: true, convert: false });
  if (!error) return out as T;
  const detail = error.details[0];
  const key = String(detail.path[0] ?? '');
  const ctx = detail.context ?? {};
  const shown = JSON.stringify(ctx.value);
  const texts: Record<string, () => [string, string]> = {
    'object.unknown': () => ['config', `Additional properties are not allowed ('${key}' was unexpected)`],
    'number.max': () => [`config.${key}`, `${shown} is greater than the maximum of ${ctx.limit}`],
    'number.min': () => [`config.${key}`, `${shown} is less than the minimum of ${ctx.limit}`],
    'boolean.base': () => [`config.${key}`, `${shown} is not of type 'boolean'`],
    'number.base': () => [`config.${key}`, `${shown} is not of type 'integer'`],
    'number.integer': () => [`config.${key}`, `${shown} is not of type 'integer'`],
  };
  const [name, description] = texts[detail.type]?.() ?? [`config.${key}`, detail.message];
  throw apiError(422, description, { name });
}

export { ApiError };
