import Joi from 'joi';
import { ApiError, apiError, fromJoi, MAX_REPORTED_ERRORS } from '../../http/errors';
import { kyivIsoOf } from '../../time/kyiv';
import { pythonRepr } from './python-repr';

/**
 * Validates a request part with a joi schema and answers with the reference's schematics texts
 * (docs/platform.md §Request bodies, §Validation messages): `This field is required.`, `Rogue field`, `Value must be one of [...]`.
 */
export function validated<T>(schema: Joi.Schema, value: unknown): T {
  const { error, value: out, unlisted } = boundedValidation(schema, value);
  if (error) {
    error.details = conversionErrorsFirst(error.details);
    for (const detail of error.details) {
      detail.message = schematicsText(detail);
      // A duplicate is reported on the list itself (`validate_list_uniq_factory`), not on the element.
      if (detail.type === 'array.unique') detail.path = detail.path.slice(0, -1);
    }
    throw withBareRogueFields(fromJoi(error, 'body', unlisted));
  }
  return out as T;
}

/**
 * The errors schematics raises while it converts the input (unknown members, values of the wrong type): the
 * reference builds the model first and validates it only when that succeeds, so where there are any they are
 * the whole answer, without the missing required fields and the rules (docs/platform.md §Request bodies).
 */
const CONVERSION_ERRORS = new Set([
  'object.unknown',
  'any.unknown',
  'string.base',
  'number.base',
  'number.infinity',
  'number.integer',
  'boolean.base',
  'object.base',
  'array.base',
  'date.iso',
  'string.hashType',
  'string.hex',
  'string.length',
]);

function conversionErrorsFirst(details: Joi.ValidationErrorItem[]): Joi.ValidationErrorItem[] {
  const conversion = details.filter((d) => CONVERSION_ERRORS.has(d.type));
  return conversion.length ? conversion : details;
}

const CHECK = { abortEarly: false, convert: false } as const;

/** joi's result, its value not trusted until the error is looked at. */
type Validation = { error?: Joi.ValidationError; value: unknown };

/**
 * joi's validation, with work bounded by the body (docs/platform.md §Limits). joi spends about 10 µs on
 * each error it makes, while a 1 MB body holds 80,000 unknown members: a second of blocked loop. So
 * the unknown members are found first, by one walk of the body beside the schema. Up to
 * `MAX_REPORTED_ERRORS` of them: joi checks the body as it is (the usual errors, in the usual order).
 * More: joi checks the body without them, and they follow the other errors (most only counted).
 */
function boundedValidation(schema: Joi.Schema, value: unknown): Validation & { unlisted?: number } {
  const unknown = unknownMembers(schema, value);
  if (unknown === 'unsure' || unknown.count <= MAX_REPORTED_ERRORS) return schema.validate(value, CHECK);
  const known = schema.validate(unknown.without, CHECK);
  const rogue = unknown.first.map((path): Joi.ValidationErrorItem => ({ type: 'object.unknown', path, message: '', context: {} }));
  const error = new Joi.ValidationError('invalid', [...(known.error?.details ?? []), ...rogue], value);
  return { value, error, unlisted: unknown.count - rogue.length };
}

type Path = (string | number)[];

/** A path as a chain to its parent: most members are never reported, so most paths are never spelled out. */
type PathLink = { parent: PathLink | null; key: string | number } | null;

const spelled = (link: PathLink): Path => {
  const path: Path = [];
  for (let at = link; at; at = at.parent) path.unshift(at.key);
  return path;
};

/** An object schema's members by name, made once per schema. */
const namedKeys = new WeakMap<object, Map<string, Joi.Schema>>();
const membersOf = (keys: { key: string; schema: Joi.Schema }[]) => {
  let named = namedKeys.get(keys);
  if (!named) namedKeys.set(keys, (named = new Map(keys.map((k) => [k.key, k.schema]))));
  return named;
};

/**
 * The members of `value` that `schema` does not name where it forbids unknown members, as joi finds
 * them for the object and array schemas the API is made of (how many, the paths of the first
 * `MAX_REPORTED_ERRORS`), and a copy of `value` without them when there are more; `unsure` where a schema of
 * another kind (alternatives, links) holds an object. No recursion: a body may nest deeply. The copy is made in
 * a second walk, only when it is needed: a valid 1000-item tender spent 11 ms here copying (docs/platform.md §Limits).
 */
function unknownMembers(schema: Joi.Schema, value: unknown): { count: number; first: Path[]; without: unknown } | 'unsure' {
  const found = walk(schema, value, false);
  if (found === 'unsure' || found.count <= MAX_REPORTED_ERRORS) return found;
  return walk(schema, value, true);
}

/** An array schema's bound, where it has one. */
const maxOf = (s: Joi.Schema) => s.$_getRule('max')?.args?.limit as number | undefined;

/** What `walk` reads of joi's internal description of a schema. */
interface SchemaTerms {
  keys?: { key: string; schema: Joi.Schema }[] | null;
  items?: Joi.Schema[];
  patterns?: unknown;
}

function walk(schema: Joi.Schema, value: unknown, copying: boolean): { count: number; first: Path[]; without: unknown } | 'unsure' {
  const first: Path[] = [];
  let count = 0;
  const root: { value?: unknown } = {};
  const ignore = () => undefined;
  const pending: [Joi.Schema, unknown, PathLink, (copy: unknown) => void][] = [[schema, value, null, (copy) => (root.value = copy)]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [s, v, at, place] = next;
    const terms = (s as unknown as { $_terms: SchemaTerms }).$_terms;
    const { keys } = terms;
    if (s.type === 'array' && Array.isArray(v) && v.length > (maxOf(s) ?? Infinity)) {
      place(v); // refused by its bound before joi looks at an element (docs/platform.md §Limits)
    } else if (s.type === 'array' && Array.isArray(v) && terms.items?.length === 1) {
      const [elementSchema] = terms.items;
      const copy: unknown[] = [];
      place(copy);
      v.forEach((element, i) => pending.push([elementSchema, element, { parent: at, key: i }, copying ? (c) => (copy[i] = c) : ignore]));
    } else if (s.type === 'object' && isPlainObject(v) && keys && !terms.patterns) {
      const copy: Record<string, unknown> = {};
      place(copy);
      const named = membersOf(keys);
      const open = (s as unknown as { _flags: { unknown?: boolean } })._flags.unknown === true;
      for (const key of Object.keys(v)) {
        const child = named.get(key);
        if (child) pending.push([child, v[key], { parent: at, key }, copying ? (c) => (copy[key] = c) : ignore]);
        else if (open) copy[key] = v[key];
        else if (count++ < MAX_REPORTED_ERRORS) first.push(spelled({ parent: at, key }));
      }
    } else if (v && typeof v === 'object' && (s.type === 'alternatives' || s.type === 'link' || (s.type === 'array' && Array.isArray(v)))) {
      return 'unsure';
    } else {
      place(v);
    }
  }
  return { count, first, without: root.value };
}

/** An unknown field is the bare string `Rogue field`, at the top level and nested (docs/platform.md §Request bodies). */
function withBareRogueFields(err: ApiError): ApiError {
  const unwrap = (d: unknown): unknown => {
    if (Array.isArray(d)) return d.length === 1 && d[0] === 'Rogue field' ? d[0] : d.map(unwrap);
    if (d && typeof d === 'object') return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, unwrap(v)]));
    return d;
  };
  return new ApiError(
    err.status,
    err.errors.map((e) => ({ ...e, description: unwrap(e.description) })),
  );
}

const pythonType = (v: unknown) =>
  typeof v === 'string' ? 'str' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'list' : Number.isInteger(v) ? 'int' : 'float';

/**
 * A JSON value as Python's `str()` prints it in the reference's texts (docs/platform.md §Amounts sent as strings):
 * `[1, 'a']`, `{'k': None}`. Never calls a member of the value, which may be named `toString` or `valueOf`.
 */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
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
      return `Value must be one of ${pythonRepr(ctx.valids)}.`;
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
    // JSON such as `1e309` parses to Infinity: the reference's conversion text (`FloatType`) with the
    // value as Python prints it; beyond 2^53 a number loses digits: its range text (docs/platform.md §Limits).
    case 'number.infinity':
      return `Value '${(ctx.value as number) > 0 ? 'inf' : '-inf'}' is not float.`;
    case 'number.unsafe':
      return (ctx.value as number) > 0
        ? `Float value should be less than ${Number.MAX_SAFE_INTEGER}.`
        : `Float value should be greater than ${Number.MIN_SAFE_INTEGER}.`;
    case 'number.integer':
      return `Value '${shown(ctx.value)}' is not int.`;
    case 'number.min':
    case 'number.greater':
      return `Float value should be greater than ${ctx.limit}.`;
    case 'number.max':
      return `Float value should be less than ${ctx.limit}.`;
    case 'date.iso':
      return `Could not parse ${shown(ctx.value)}. Should be ISO8601.`;
    case 'string.email':
      return 'Not a well-formed email address.';
    case 'string.uri':
    case 'string.uriCustomScheme':
      return 'Not a well formed URL.';
    case 'string.hashType':
      return 'Hash type is not supported.';
    case 'string.hex':
      return 'Hash value is not hexadecimal.';
    case 'string.length':
      return 'Hash value is wrong length.';
    // Every type a schema here can raise is mapped above; a custom rule's own text (`helpers.message`,
    // `.messages()`) is kept.
    default:
      return detail.message;
  }
}

/** Object schemas carry the reference's model name as their joi label (`Value`, `Period`…). */
const modelName = (label: unknown) => (typeof label === 'string' && /^[A-Z]/.test(label) ? label : 'Model');

/** An ISO 8601 date-time string, stored in Kyiv time (docs/platform.md §Time and dates). */
export const isoDate = () => Joi.string().custom((value: string, helpers) => kyivIsoOf(value) ?? helpers.error('date.iso', { value }));

/**
 * The reference's PATCH semantics (`apply_data_patch`): objects merge member by member, anything else
 * (lists included) replaces the stored value. The inputs are not modified.
 */
export function mergePatch<T extends object>(stored: T, patch: object): T {
  const out: Record<string, unknown> = { ...(stored as Record<string, unknown>) };
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
  const result: Validation = schema.validate(value ?? {}, { abortEarly: true, convert: false });
  const { error, value: out } = result;
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
