import Joi from 'joi';
import { ApiError, apiError, fromJoi } from '../../http/errors';
import { parseIsoDate } from '../../time/kyiv';

/**
 * Validates a request part with a joi schema and answers with the reference's schematics texts
 * (docs/platform.md §Request bodies, §Validation messages): `This field is required.`, `Rogue field`, `Value must be one of [...]`.
 */
export function validated<T>(schema: Joi.Schema, value: unknown): T {
  const { error, value: out } = schema.validate(value, { abortEarly: false, convert: false });
  if (error) {
    for (const detail of error.details) {
      detail.message = schematicsText(detail);
      // A duplicate is reported on the list itself (`validate_list_uniq_factory`), not on the element.
      if (detail.type === 'array.unique') detail.path = detail.path.slice(0, -1);
    }
    throw withBareRogueFields(fromJoi(error));
  }
  return out as T;
}

/** An unknown field is the bare string `Rogue field`, at the top level and nested (docs/platform.md §Request bodies). */
function withBareRogueFields(err: ApiError): ApiError {
  const unwrap = (d: unknown): unknown => {
    if (Array.isArray(d)) return d.length === 1 && d[0] === 'Rogue field' ? d[0] : d.map(unwrap);
    if (d && typeof d === 'object') return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, unwrap(v)]));
    return d;
  };
  return new ApiError(err.status, err.errors.map((e) => ({ ...e, description: unwrap(e.description) })));
}

const pythonType = (v: unknown) =>
  typeof v === 'string' ? 'str' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'list' : Number.isInteger(v) ? 'int' : 'float';

/** String(value) that cannot throw: a JSON object may carry its own `toString` or `valueOf` member. */
function shown(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[object Object]';
  }
}

function schematicsText(detail: Joi.ValidationErrorItem): string {
  const ctx = detail.context ?? {};
  switch (detail.type) {
    case 'any.required':
      return 'This field is required.';
    case 'object.unknown':
    case 'any.unknown':
      return 'Rogue field';
    case 'any.only':
      return `Value must be one of [${(ctx.valids as unknown[]).map((v) => `'${String(v)}'`).join(', ')}].`;
    case 'object.base':
      return `Please use a mapping for this field or ${modelName(ctx.label)} instance instead of ${pythonType(ctx.value)}.`;
    case 'array.base':
      return 'Could not interpret the value as a list.';
    case 'array.min':
      return 'Please provide at least 1 item.';
    case 'array.max':
      return `Please provide no more than ${ctx.limit} item${ctx.limit === 1 ? '' : 's'}.`;
    case 'array.unique':
      return `Items should be unique by fields: ${ctx.path ?? 'id'}`;
    case 'string.base':
      return `Couldn't interpret '${shown(ctx.value)}' as string.`;
    case 'string.empty':
    case 'string.min':
      return 'String value is too short.';
    case 'string.max':
      return 'String value is too long.';
    case 'boolean.base':
      return 'Must be either true or false.';
    case 'number.base':
      return `Value '${shown(ctx.value)}' is not float.`;
    case 'number.integer':
      return `Value '${shown(ctx.value)}' is not int.`;
    case 'number.min':
    case 'number.greater':
      return `Float value should be greater than ${ctx.limit}.`;
    case 'number.max':
      return `Float value should be less than ${ctx.limit}.`;
    case 'date.iso':
      return `Could not parse ${shown(ctx.value)}. Should be ISO8601.`;
    case 'string.hex':
      return 'Hash value is not hexadecimal.';
    case 'string.length':
      return 'Hash value is wrong length.';
    default:
      return detail.message;
  }
}

/** Object schemas carry the reference's model name as their joi label (`Value`, `Period`…). */
const modelName = (label: unknown) => (typeof label === 'string' && /^[A-Z]/.test(label) ? label : 'Model');

/** An ISO 8601 date-time string, kept as the client wrote it. */
export const isoDate = () =>
  Joi.string().custom((value: string, helpers) => (parseIsoDate(value) ? value : helpers.error('date.iso', { value })));

/**
 * The reference's PATCH semantics (`apply_data_patch`): objects merge member by member, anything else
 * (lists included) replaces the stored value. The inputs are not modified.
 */
export function mergePatch<T extends Record<string, unknown>>(stored: T, patch: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    const before = out[key];
    out[key] = isPlainObject(value) && isPlainObject(before) ? mergePatch(before, value) : value;
  }
  return out as T;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Config members are checked by JSON schema in the reference: texts as jsonschema prints them, the
 * name `config` for an unknown key and `config.<key>` for a bad value (docs/frameworks.md §Framework config).
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
