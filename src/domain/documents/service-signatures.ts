import type { KeyObject } from 'node:crypto';
import type { DocserviceConfig } from '../../config';
import { apiError } from '../../http/errors';
import { signatureBytes, signatureOf, verifies } from './docservice';

const refusal = (name: 'KeyID' | 'Signature' | 'Expires', description: string) => apiError(403, description, { location: 'url', name });

/** A parameter as the reference's `request.GET.get` reads it: the last of its name, blank kept. */
const lastOf = (query: URLSearchParams, name: string): string | undefined => query.getAll(name).at(-1);

/** The key a request names (`KeyID`, the registry's own when absent); 403 `KeyID` for one the keyring lacks. */
function keyOf(service: DocserviceConfig, keyId: string): KeyObject {
  const key = service.keyring.get(keyId);
  if (!key) throw refusal('KeyID', 'Key Id does not exist');
  return key;
}

/** Checks `Signature` over `message` with `key`: absent 403 `Not Found`, not base64 `Signature invalid`, else must verify. */
function checkSignature(query: URLSearchParams, key: KeyObject, message: string): void {
  const parameter = lastOf(query, 'Signature');
  if (parameter === undefined) throw refusal('Signature', 'Not Found');
  const signature = signatureBytes(parameter);
  if (!signature) throw refusal('Signature', 'Signature invalid');
  if (!verifies(key, message, signature)) throw refusal('Signature', 'Signature does not match');
}

/**
 * `POST /upload/{key}`: the upload URL `/register` answered, signed over the key by a key of the keyring
 * (docs/platform.md §Built-in document service; the reference's `signed_request(check_expire=False)`).
 */
export function checkUploadUrl(service: DocserviceConfig, query: URLSearchParams, key: string): void {
  checkSignature(query, keyOf(service, lastOf(query, 'KeyID') ?? service.keyId), key);
}

/**
 * `GET /get/{key}`: the file key the URL opens, once its signature holds (the reference's
 * `signed_request(check_expire=True)` and `get_view`): an `Expires` before `now` 403 `Request has expired` (so a URL
 * is never good past it); without `Expires` only the registry's own key signs, over the key alone; with it over
 * `key\0Expires`; a `Prefix` goes before both, and before the key looked up.
 */
export function openedKey(service: DocserviceConfig, query: URLSearchParams, key: string, now: Date): string {
  const keyId = lastOf(query, 'KeyID') ?? service.keyId;
  const expires = lastOf(query, 'Expires') || undefined;
  // The reference fails with 500 on an Expires that is not a number of seconds; here it has expired.
  if (expires !== undefined && (!/^\d+$/.test(expires) || BigInt(expires) < BigInt(Math.floor(now.getTime() / 1000)))) {
    throw refusal('Expires', 'Request has expired');
  }
  if (keyId !== service.keyId && expires === undefined) throw refusal('KeyID', 'Key Id does permit to get private document');
  const publicKey = keyOf(service, keyId);
  const prefix = lastOf(query, 'Prefix') || undefined;
  const signed = expires === undefined ? key : `${key}\0${BigInt(expires)}`;
  checkSignature(query, publicKey, prefix === undefined ? signed : `${prefix}/${signed}`);
  return prefix === undefined ? key : `${prefix}/${key}`;
}

/** The URL of the file `key` on the service, `<base>/<route>/<key>?KeyID=…&Signature=…` over `message` (`generate_route`). */
export function serviceUrl(service: DocserviceConfig, route: 'get' | 'upload', key: string, message: string): string {
  const query = new URLSearchParams({ KeyID: service.keyId, Signature: signatureOf(service, message) });
  return `${service.urls[0]}/${route}/${key}?${query.toString()}`;
}

/** The document url of the file `key` whose hash is `hash` (`md5:…`): what a broker POSTs to the API as `url`. */
export const documentUrl = (service: DocserviceConfig, key: string, hash: string): string =>
  serviceUrl(service, 'get', key, `${key}\0${hash.slice(hash.indexOf(':') + 1)}`);
