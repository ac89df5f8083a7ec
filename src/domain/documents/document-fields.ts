import { apiError } from '../../http/errors';
import type { DocumentFields } from '../core/document-host';
import type { HeldVersion } from '../core/shapes';

const BUYER_ONLY = 'buyerOnly';
/** The reference's least length of a `buyerOnly` document's reason (docs/platform.md §Document fields). */
const RATIONALE_MIN = 30;

/**
 * What an upload records beyond its file where the holder's documents have it: `documentOf`, `confidentiality`,
 * `language`, `author`.
 */
export function uploadFields(
  fields: DocumentFields | undefined,
): Pick<HeldVersion, 'documentOf' | 'confidentiality' | 'language' | 'author'> {
  if (!fields) return {};
  const { documentOf, confidentiality, language, author } = fields;
  return {
    ...(documentOf ? { documentOf } : {}),
    ...(language ? { language } : {}),
    ...(confidentiality ? { confidentiality: 'public' } : {}),
    ...(author ? { author } : {}),
  };
}

/**
 * Refuses a document whose metadata the holder does not take, as the reference's document model and state do
 * after a change (docs/platform.md §Document fields): a `buyerOnly` one without a reason of 30 characters, a
 * `buyerOnly` one where the holder's documents are public, a `relatedItem` naming nothing of `parent`.
 */
export function checkDocumentFields(
  fields: DocumentFields | undefined,
  document: HeldVersion,
  parent: Record<string, unknown> | undefined,
): void {
  if (document.confidentiality === BUYER_ONLY) {
    const rationale = document.confidentialityRationale;
    if (!rationale) throw apiError(422, ['confidentialityRationale is required'], { name: 'confidentialityRationale' });
    if (String(rationale).length < RATIONALE_MIN) {
      throw apiError(422, [`confidentialityRationale should contain at least ${RATIONALE_MIN} characters`], {
        name: 'confidentialityRationale',
      });
    }
    if (fields?.confidentiality !== BUYER_ONLY) throw apiError(422, 'Document should be public', { name: 'confidentiality' });
  }
  const container = fields?.related?.[document.documentOf as string];
  if (!container || !parent) return;
  if (!document.relatedItem) throw apiError(422, ['This field is required.'], { name: 'relatedItem' });
  const parts: unknown = parent[container];
  if (!Array.isArray(parts) || !parts.some((part: { id?: unknown } | null) => part?.id === document.relatedItem)) {
    throw apiError(422, [`relatedItem should be one of ${container}`], { name: 'relatedItem' });
  }
}

export const isConfidential = (document: HeldVersion): boolean => document.confidentiality === BUYER_ONLY;

/**
 * The documents as a reader who may not open `buyerOnly` ones sees them: every version of a document whose latest
 * version is `buyerOnly`, and every `buyerOnly` version, without its `url` (none of them downloads for that reader).
 */
export function withoutConfidentialUrls(documents: HeldVersion[]): HeldVersion[] {
  const latest = new Map<unknown, HeldVersion>(documents.map((d) => [d.id, d]));
  return documents.map((d) => {
    if (!isConfidential(d) && !isConfidential(latest.get(d.id)!)) return d;
    const { url: _url, ...rest } = d;
    return rest;
  });
}

/** The reference's refusal to download a `buyerOnly` document to anyone but its holder's owner and the buyer. */
export const downloadForbidden = () => apiError(403, 'Document download forbidden.');
