import type { Change, Indexed, KeptVersion, Kind, ObjectView, StoreSession, Stored } from '../../store/port';
import { notFound } from '../../http/errors';
import { formatKyiv, parseIsoDate } from '../../time/kyiv';
import type { SaveRule } from './server-managed';
import { wayBack } from './history';
import type { ObjectDoc } from './object-doc';

export type { ObjectDoc } from './object-doc';

export { isRestricted } from '../../store/port';

/** The URL name for an unknown id of a kind: `tender_id`, `framework_id`… (docs/platform.md §Not found). */
export const idName = (kind: Kind) => `${kind.slice(0, -1)}_id`;

const OBJECT_ID = /^[0-9a-f]{32}$/;

/** What the store answers for an object's id; 404 for a malformed id or an unknown object. */
async function found<T>(kind: Kind, id: string, read: () => Promise<T | null>): Promise<T> {
  const answer = OBJECT_ID.test(id) ? await read() : null;
  if (!answer) throw notFound(idName(kind));
  return answer;
}

/** A stored object, its document typed as the domain keeps it (`StoredObject<FrameworkDoc>` for a typed kind). */
export type StoredObject<D extends ObjectDoc<object, object, object> = ObjectDoc> = Stored & { doc: D };

/** The object the store holds under `kind` and `id`; a typed kind names its document type (joi checked every save). */
export async function loadObject<D extends ObjectDoc<object, object, object> = ObjectDoc>(
  session: StoreSession,
  kind: Kind,
  id: string,
): Promise<StoredObject<NoInfer<D>>> {
  return (await found(kind, id, () => session.get(kind, id))) as StoredObject<D>;
}

/** `ObjectView` with the stored document typed as the domain keeps it. */
type ObjectDocView = Exclude<ObjectView, Stored> | (Stored & { doc: ObjectDoc; confirmed?: unknown });

/** The object's view as the store gives it (`StoreSession.getView`), or `'unchanged'` while it is still at the `kept` version. */
export async function loadView(session: StoreSession, kind: Kind, id: string, kept?: KeptVersion): Promise<ObjectDocView | 'unchanged'> {
  return (await found(kind, id, () => session.getView(kind, id, kept))) as ObjectDocView | 'unchanged';
}

/** The members of any kind's `data` read here; a kind not typed yet stores them unchecked. */
interface CommonData {
  id: string;
  status?: unknown;
  mode?: unknown;
  next_check?: unknown;
  dateModified?: unknown;
}
const commonData = (doc: ObjectDoc): CommonData | undefined => doc.data as CommonData | undefined;

/** Feed and check columns derived from the document: drafts and deleted objects stay out of feeds. */
export function indexOf(doc: ObjectDoc): Indexed {
  const { status, mode, next_check: nextCheck } = doc.data as CommonData;
  return {
    isPublic: status !== 'draft' && status !== 'deleted' && status !== undefined,
    isTest: mode === 'test',
    nextCheck: typeof nextCheck === 'string' ? Date.parse(nextCheck) : null,
  };
}

/**
 * The one way a change of an object is built. `writes` names the server-managed arrays the saving route owns
 * (docs/platform.md §Server-managed arrays).
 */
export interface ChangeBuilders {
  insertOf: (kind: Kind, doc: ObjectDoc, writes?: readonly string[]) => Change;
  updateOf: (stored: Stored, doc: ObjectDoc, writes?: readonly string[]) => Change;
}

/**
 * The change builders, running each kind's save rules (`rulesOf`) on every change: the domain builds them once with
 * every kind's rules (`src/domain/save-rules.ts`), so core knows no kind and no save goes around the rules.
 */
export function changeBuilders(rulesOf: (kind: Kind) => readonly SaveRule[]): ChangeBuilders {
  const apply = (kind: Kind, after: ObjectDoc, before: ObjectDoc | null, writes: readonly string[]) => {
    for (const rule of rulesOf(kind)) rule(after, before, writes);
  };
  return {
    insertOf: (kind, doc, writes = []) => {
      apply(kind, doc, null, writes);
      return { op: 'insert', kind, id: (doc.data as CommonData).id, doc, index: indexOf(doc) };
    },
    updateOf: (stored, doc, writes = []) => {
      apply(stored.kind, doc, stored.doc as ObjectDoc, writes);
      const saved = withDateModifiedAfter(stored.doc as ObjectDoc, doc);
      const change: Change = { op: 'update', kind: stored.kind, id: stored.id, expectedRev: stored.rev, doc: saved, index: indexOf(doc) };
      if (seenAlike(stored.doc as ObjectDoc, saved)) change.keepsPosition = stored.seq;
      else change.back = wayBack(stored.doc as ObjectDoc, saved);
      return change;
    },
  };
}

/**
 * Whether every reader sees the object as before: its `data` and `config` are unchanged, so only hidden members
 * changed (sealed bids, bid access, question authors, token hashes). Such a change keeps the object's feed position
 * (docs/architecture.md §Hidden changes). Almost every visible change moves `dateModified`, which spares the
 * comparison.
 */
function seenAlike(before: ObjectDoc, after: ObjectDoc): boolean {
  if (commonData(before)?.dateModified !== commonData(after)?.dateModified) return false;
  return JSON.stringify(before.data) === JSON.stringify(after.data) && JSON.stringify(before.config) === JSON.stringify(after.config);
}

/**
 * A request stamps `now` when it starts (docs/platform.md §Time and dates), so one that loads an object after a later-stamped
 * write committed it would move dateModified back; it moves 1 ms past the stored one instead. The document is
 * changed in place so the reply shows what is stored.
 */
function withDateModifiedAfter(before: ObjectDoc, after: ObjectDoc): ObjectDoc {
  const previous = commonData(before)?.dateModified;
  const next = commonData(after)?.dateModified;
  if (typeof previous !== 'string' || typeof next !== 'string' || next === previous) return after;
  const previousMs = parseIsoDate(previous)?.getTime();
  const nextMs = parseIsoDate(next)?.getTime();
  if (previousMs !== undefined && nextMs !== undefined && nextMs <= previousMs) {
    (after.data as CommonData).dateModified = formatKyiv(new Date(previousMs + 1));
  }
  return after;
}
