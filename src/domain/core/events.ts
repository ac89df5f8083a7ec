import { formatKyiv, parseIsoDate } from '../../time/kyiv';

/**
 * An automatic transition of a kind's state machine (docs/architecture.md §Automatic transitions, §Where rules live):
 * once `due` (an ISO date-time) has come, `apply` moves the target on, in place. A kind's `events(target)` lists the
 * transitions pending in the target's present state; `next_check` is the earliest `due` and a check applies whatever
 * is due, both from that one list, so planning and running cannot drift.
 */
export interface DueEvent<T, C = void> {
  due: string;
  apply: (target: T, now: Date, config: C) => void;
}

/** A stored date-time as a `due`: the same instant written as the reference writes `next_check` (Kyiv offset). */
export const dueAt = (date: Date | string): string => formatKyiv(typeof date === 'string' ? parseIsoDate(date)! : date);

/** `next_check`: the earliest pending event's `due`, undefined when none is pending. */
export function nextCheckOf(events: { due: string }[]): string | undefined {
  const dues = events.map((e) => e.due).sort((a, b) => Date.parse(a) - Date.parse(b));
  return dues[0];
}

/**
 * Applies the first of `eventsOf(target)` whose time has come and lists the events again (an applied event changes
 * what is pending), until none is due, so one late run passes every transition due by `now`, in order. Returns how
 * many applied. An event leaves the state that lists it: a transition that is due never stays pending.
 */
export function applyDueEvents<T, C>(target: T, eventsOf: (target: T) => DueEvent<T, C>[], now: Date, config: C): number {
  const isDue = (e: DueEvent<T, C>) => Date.parse(e.due) <= now.getTime();
  let applied = 0;
  for (let event = eventsOf(target).find(isDue); event; event = eventsOf(target).find(isDue)) {
    event.apply(target, now, config);
    applied += 1;
  }
  return applied;
}
