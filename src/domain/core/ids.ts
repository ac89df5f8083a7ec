import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import type { StoreSession } from '../../store/port';

/** Object ids: 32 lowercase hex characters. */
export const newId = () => randomUUID().replace(/-/g, '');

/**
 * A human-readable identifier with a per-day counter unique across nodes, e.g. `UA-2026-11-22-000001`
 * (the day is Kyiv's calendar day, as the reference's ids).
 */
export async function dailyId(session: StoreSession, series: string, prefix: string, now: Date): Promise<string> {
  const day = DateTime.fromJSDate(now, { zone: 'Europe/Kyiv' }).toFormat('yyyy-MM-dd');
  const n = await session.nextCounter(`${series}:${day}`);
  return `${prefix}-${day}-${String(n).padStart(6, '0')}`;
}
