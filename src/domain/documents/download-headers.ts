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
