import { randomUUID } from 'node:crypto';
import type { Numbering } from '../../store/port';
import { kyivWallMs } from '../../time/kyiv';

/** Object ids: 32 lowercase hex characters. */
export const newId = () => randomUUID().replace(/-/g, '');

/** Kyiv's calendar day of an instant, e.g. `2026-11-22`. */
const kyivDay = (now: Date) => new Date(kyivWallMs(now)).toISOString().slice(0, 10);

/**
 * A human-readable identifier with a per-day counter unique across nodes, e.g. `UA-2026-11-22-000001` (the day
 * is Kyiv's calendar day, as the reference's ids), numbered by the commit that stores it: `assign` puts it in.
 */
export function dailyId(series: string, prefix: string, now: Date, assign: (id: string) => void): Numbering {
  const day = kyivDay(now);
  return { counter: `${series}:${day}`, assign: (n) => assign(`${prefix}-${day}-${String(n).padStart(6, '0')}`) };
}
