import type { Document } from '../core/shapes';

/**
 * A version of a document as stored (docs/platform.md §Document versions), with the fields some holders add
 * (docs/platform.md §Document fields).
 */
export type DocumentVersion = Document & {
  confidentiality?: 'public' | 'buyerOnly';
  confidentialityRationale?: string;
};

/**
 * A version as a holder hands one over: the documents code counts on none of its members (a reader's view of a
 * `buyerOnly` one has no `url`, and the tender side, not typed yet, hands over untyped ones).
 */
export type HeldVersion = Partial<DocumentVersion>;
