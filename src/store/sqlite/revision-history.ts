import type { Kind, PatchOp, Revision } from '../port';
import { fromMicros, toMicros } from '../feed-position';
import type { Statements } from './statements';
import { guard } from './sqlite-errors';

/**
 * An object's revisions, oldest first: the chain each revision names from the object's current position
 * (schema.ts; docs/architecture.md §Revision history).
 */
export function revisionHistory(sql: Statements, kind: Kind, id: string): Revision[] {
  return revisionsFrom(
    sql,
    kind,
    guard(() => sql.positionOf.get(kind, id)),
  );
}

/** The revisions of a kind's object whose current position is `position`, oldest first. */
export function revisionsFrom(sql: Pick<Statements, 'revision'>, kind: Kind, position: number | null | undefined): Revision[] {
  const revisions: Revision[] = [];
  let at = position;
  while (at != null) {
    const row = guard(() => sql.revision.get(kind, toMicros(at!)));
    if (!row) break;
    revisions.push({ seq: at, author: row.author, back: JSON.parse(row.back) as PatchOp[] });
    at = row.previous == null ? null : fromMicros(row.previous);
  }
  return revisions.reverse();
}
