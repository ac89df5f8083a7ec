import { isBroker, type Viewer } from '../../http/auth';
import { apiError } from '../../http/errors';
import { feedRoute, type FeedSource } from '../../http/feed';
import type { MountableRoute } from '../../http/route';
import { applyMask, type MaskTable } from '../../masking/mask';
import type { RestrictedMode } from '../../config';
import type { Kind, StoredDoc } from '../../store/port';
import type { ObjectDoc } from './objects';
import { seesWhole } from './restricted-view';
import { objectReadRoutes } from './object-reads';
import type { DocumentHost } from './document-host';

/** What a reader gets of a restricted object: all of it, the hidden-field view, or nothing. */
export type Access = 'full' | 'hidden' | 'none';

/** A framework's derivative (submission, qualification, agreement) as restricted access sees it; `D`, its stored document. */
export interface Derivative<D extends ObjectDoc<object, object, object> = ObjectDoc> {
  kind: Kind;
  /** The word in `Access restricted for {name} object`. */
  name: string;
  mask: MaskTable;
  /** Brokers the spec's access table lets see the object whole, by account name. */
  readers(doc: D): (string | undefined)[];
  /** Fields a reduced feed entry keeps besides `id`, `dateModified` and `restricted: true`. */
  reducedFields: string[];
  allowedFields: readonly string[];
}

/**
 * What a reader gets of a framework's derivative: whole where `seesWhole` says so (the brokers its access table
 * names); else the hidden view (variant A) or nothing (variant B) (docs/platform.md §Restricted access).
 */
export function accessOf(derivative: Derivative, doc: ObjectDoc, viewer: Viewer, mode: RestrictedMode): Access {
  if (seesWhole(doc, viewer, derivative.readers(doc))) return 'full';
  return mode === 'hidden' ? 'hidden' : 'none';
}

/** A single read: the data as this reader may see it (hidden members keep their place), or 403 (variant B; spec: Errors). */
export function singleView<D extends ObjectDoc<object, object, object>>(
  derivative: Derivative<D>,
  doc: D,
  viewer: Viewer,
  mode: RestrictedMode,
): D['data'] {
  const access = requireReadAccess(derivative, doc, viewer, mode);
  return access === 'hidden' ? applyMask(doc.data, derivative.mask) : doc.data;
}

/** Refuses a reader with no access at all (variant B). */
function requireReadAccess(derivative: Derivative, doc: ObjectDoc, viewer: Viewer, mode: RestrictedMode): Access {
  const access = accessOf(derivative, doc, viewer, mode);
  if (access === 'none') throw apiError(403, `Access restricted for ${derivative.name} object`);
  return access;
}

/**
 * Feed entries (spec: Feed behaviour 1-4): whole for readers with access; for a broker without access (an
 * other participant) and in variant B for everyone without access, `{id, dateModified, frameworkID,
 * restricted: true}`; an anonymous reader in variant A gets the hidden view.
 */
export function derivativeFeed(derivative: Derivative, mode: RestrictedMode): FeedSource {
  return {
    kind: derivative.kind,
    allowedFields: derivative.allowedFields,
    entry(stored: StoredDoc, viewer: Viewer) {
      // `dateCreated` is kept beside a derivative's data and shown in its feed.
      const doc = stored as ObjectDoc<Record<string, unknown>, object, { dateCreated?: string }>;
      const access = accessOf(derivative, doc, viewer, mode);
      const data = doc.dateCreated ? { ...doc.data, dateCreated: doc.dateCreated } : doc.data;
      if (access === 'full') return { data };
      if (access === 'none' || isBroker(viewer)) return { data: reducedEntry(derivative, doc.data), fixed: true };
      return { data: applyMask(data, derivative.mask) };
    },
  };
}

function reducedEntry(derivative: Derivative, data: Record<string, unknown>): Record<string, unknown> {
  const entry: Record<string, unknown> = { id: data.id, dateModified: data.dateModified };
  for (const field of derivative.reducedFields) if (data[field] !== undefined) entry[field] = data[field];
  entry.restricted = true;
  return entry;
}

/** `GET /{kind}/{id}` and the `/{kind}` feed of a derivative, each through the one access decision. */
export function derivativeReadRoutes<D extends ObjectDoc<object, object, object>>(
  derivative: Derivative<D>,
  { publicBaseUrl, restrictedMode }: { publicBaseUrl: string | null; restrictedMode: RestrictedMode },
): MountableRoute[] {
  return [
    ...objectReadRoutes(derivative.kind, (doc, viewer) => ({
      data: singleView(derivative, doc as D, viewer, restrictedMode),
      config: doc.config,
    })),
    feedRoute(derivativeFeed(derivative, restrictedMode), publicBaseUrl),
  ];
}

/** The reading side of a derivative's documents: the object's own single view, so documents hide as it does. */
export const derivativeDocuments = <D extends ObjectDoc<object, object, object>>(
  derivative: Derivative<D>,
): Pick<DocumentHost, 'kind' | 'name' | 'view'> => ({
  kind: derivative.kind,
  name: derivative.name,
  view: (doc, viewer, mode) => singleView(derivative, doc as D, viewer, mode),
});
