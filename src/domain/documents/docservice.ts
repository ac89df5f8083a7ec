import { sign, verify, type KeyObject } from 'node:crypto';
import type { DocserviceConfig } from '../../config';
import { apiError } from '../../http/errors';

/** How long a download URL the registry signs stays good, as the reference's (`generate_docservice_url`). */
export const DOWNLOAD_URL_SECONDS = 300;

const notFromService = () => apiError(403, 'Can add document only from document service.', { name: 'url' });
const urlRefusal = (description: string) => apiError(422, description, { name: 'url' });

/** The query of a url as the reference reads it (`dict(parse_qsl(query))`): blank values dropped, the last of a name kept. */
function queryOf(url: URL): Map<string, string> {
  return new Map([...url.searchParams].filter(([, value]) => value !== ''));
}

/**
 * A `Signature` parameter as the reference reads one, `b64decode(unquote(value))`: the reference's document service
 * quotes the base64 before the URL encodes it again (`%252B`), so the parameter may still be quoted once. Python's
 * `b64decode` without `validate` drops characters outside the alphabet, and what is left must be whole groups of
 * four; null where it would raise (`Document url signature invalid.`, the service's `Signature invalid`).
 */
export function signatureBytes(parameter: string): Buffer | null {
  const unquoted = parameter.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  // Python's `b64decode` of a str refuses any character beyond ASCII (`unquote` makes one of a quoted UTF-8 byte).
  if ([...unquoted].some((ch) => ch.charCodeAt(0) > 0x7f)) return null;
  const kept = unquoted.replace(/[^A-Za-z0-9+/=]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(kept) || kept.length % 4 !== 0) return null;
  return Buffer.from(kept, 'base64');
}

/**
 * The file key a document's `url` names on the document service, once the url is shown to be the service's own
 * (docs/platform.md §Document service, the reference's `check_document`): 403 where there is no service or the url
 * is not on it as `<base>/<path>/<key>?Signature=…&KeyID=…`; then 422 `hash` missing, `url` "expired" for an unknown
 * KeyID, "signature invalid" for a Signature that is not base64, "invalid" where it does not sign `key\0md5`.
 */
export function documentServiceKey(service: DocserviceConfig | null, url: string, hash: string | undefined): string {
  if (!service || !URL.canParse(url)) throw notFromService();
  const parsed = new URL(url);
  const segments = parsed.pathname.split('/');
  const query = queryOf(parsed);
  const onService = service.urls.some((base) => url.startsWith(`${base}/`));
  if (!onService || segments.length !== 3 || query.size !== 2 || !query.has('Signature') || !query.has('KeyID')) throw notFromService();
  if (!hash) throw apiError(422, 'This field is required.', { name: 'hash' });
  const publicKey = service.keyring.get(query.get('KeyID')!);
  if (!publicKey) throw urlRefusal('Document url expired.');
  const signature = signatureBytes(query.get('Signature')!);
  if (!signature) throw urlRefusal('Document url signature invalid.');
  const key = segments[2];
  if (!verifies(publicKey, `${key}\0${hash.slice(hash.indexOf(':') + 1)}`, signature)) throw urlRefusal('Document url invalid.');
  return key;
}

/** Whether `signature` is `key`'s Ed25519 signature of `message` (a signature of another length is not). */
export const verifies = (key: KeyObject, message: string, signature: Buffer): boolean =>
  signature.length === 64 && verify(null, Buffer.from(message), key, signature);

/** The registry's signature of `message`, base64, as its URLs carry it. */
export const signatureOf = (service: DocserviceConfig, message: string): string =>
  sign(null, Buffer.from(message), service.signingKey).toString('base64');

/**
 * The service's URL of the file `key` that a download redirects to: `/get/<key>` on the first base's origin, good
 * until `Expires` (now + 300 s), signed over `key\0expires` by the registry's key (`generate_docservice_url`).
 */
export function downloadUrl(service: DocserviceConfig, key: string, now: Date): string {
  const expires = Math.floor(now.getTime() / 1000) + DOWNLOAD_URL_SECONDS;
  const query = new URLSearchParams({
    Expires: String(expires),
    Signature: signatureOf(service, `${key}\0${expires}`),
    KeyID: service.keyId,
  });
  return `${new URL(service.urls[0]).origin}/get/${key}?${query.toString()}`;
}
