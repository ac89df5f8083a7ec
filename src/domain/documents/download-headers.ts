/**
 * The headers of a document download (docs/platform.md §Documents and uploads): the document's own `format` where
 * no browser would run it as this origin's page or script, `application/octet-stream` otherwise; always an
 * attachment, named both ways RFC 6266 allows, an ASCII `filename` first for clients that read only that.
 */
const MEDIA_TYPE = /^(application|audio|font|image|model|text|video)\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const ACTIVE = new Set([
  'text/html',
  'text/javascript',
  'text/ecmascript',
  'text/css',
  'text/xml',
  'text/xsl',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/x-shockwave-flash',
]);

export function downloadType(format: unknown): string {
  if (typeof format !== 'string' || !MEDIA_TYPE.test(format)) return 'application/octet-stream';
  const type = format.toLowerCase();
  return ACTIVE.has(type) || type.endsWith('+xml') ? 'application/octet-stream' : type;
}

export function downloadDisposition(title: unknown): string {
  const name = typeof title === 'string' && title ? title : 'file';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

// RFC 2616 separators and RFC 5987 attr-chars, as the reference's `rfc6266.py` has them.
const SEPARATORS = new Set('()<>@,;:\\"/[]?={} \t');
const isToken = (text: string) => [...text].every((ch) => ch > '\x1f' && ch < '\x7f' && !SEPARATORS.has(ch));
const ALWAYS_SAFE = /[A-Za-z0-9_.~-]/;

/** Python's `quote(text, safe)`: UTF-8 bytes, each outside the always-safe and `safe` characters as `%XX`. */
function pythonQuote(text: string, safe: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => {
      const ch = String.fromCharCode(byte);
      return byte < 0x80 && (ALWAYS_SAFE.test(ch) || safe.includes(ch)) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * The built-in document service's `Content-Disposition` (docs/platform.md §Built-in document service), as the
 * reference's service builds it (`build_header(name, filename_compat=quote(name))`): a token name bare,
 * `attachment; filename=file.txt`, which the reference's client reads by splitting at `; filename=`; other ASCII
 * quoted; else the quoted UTF-8 as `filename` and the name itself as `filename*`.
 */
export function serviceDisposition(name: string): string {
  if (isToken(name)) return `attachment; filename=${name}`;
  const quoted = name.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const lwsSafe = name.split(/\s+/).filter(Boolean).join(' ') === name;
  let header = 'attachment';
  // Printable only: a control character would make the header unsendable (the reference sends it raw).
  if (/^[\x20-\x7e]*$/.test(name) && lwsSafe) {
    header += `; filename="${quoted}"`;
    if (quoted === name) return header;
  } else {
    const compat = pythonQuote(name, '/');
    header += isToken(compat) ? `; filename=${compat}` : `; filename="${compat}"`;
  }
  return `${header}; filename*=utf-8''${pythonQuote(name, '!#$&+-.^_`|~')}`;
}
