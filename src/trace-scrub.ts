/**
 * What a trace may say of a URL (docs/operations.md §Traces): the query parameters the API takes that carry no
 * secret keep their values; those that carry one (`acc_token`, a document's `download` key) keep their name only;
 * any other parameter, whose name may itself be a secret sent by mistake, becomes `REDACTED` whole. A parameter
 * the API gains later is therefore hidden until it is listed here.
 */
const PUBLIC_PARAMS = new Set(['offset', 'limit', 'descending', 'mode', 'feed', 'opt_fields', 'opt_schema', 'opt_pretty', 'all']);
const SECRET_PARAMS = new Set(['acc_token', 'download']);
const REDACTED = 'REDACTED';

/** The span attributes the HTTP instrumentation writes (or has written in other versions) with a query string in them. */
export const URL_ATTRIBUTES = ['url.query', 'url.full', 'http.target', 'http.url'] as const;

const paramName = (raw: string) => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
};

/** A query string (without `?`) as a trace may hold it, each `name=value` kept verbatim or redacted. */
export function scrubbedQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const cut = pair.indexOf('=');
      const raw = cut < 0 ? pair : pair.slice(0, cut);
      const name = paramName(raw);
      if (PUBLIC_PARAMS.has(name)) return pair;
      return SECRET_PARAMS.has(name) ? `${raw}=${REDACTED}` : REDACTED;
    })
    .join('&');
}

/**
 * The value of one of `URL_ATTRIBUTES` as a trace may hold it: `url.query` is the query itself; the others are a URL
 * or a path whose query is what follows the first `?`, and whose fragment, never sent in a request, is dropped.
 */
export function scrubbedUrlAttribute(key: (typeof URL_ATTRIBUTES)[number], value: string): string {
  if (key === 'url.query') return scrubbedQuery(value);
  const url = value.split('#')[0];
  const start = url.indexOf('?');
  return start < 0 ? url : `${url.slice(0, start + 1)}${scrubbedQuery(url.slice(start + 1))}`;
}
