/**
 * Feed positions (docs/platform.md §Feeds): float UNIX seconds in steps of a microsecond, strictly increasing in
 * commit order. Computed in whole microseconds, which a double holds exactly until the year 2255; the seconds are
 * the nearest double to them, so their order is the microseconds' order.
 *
 * Pages end on ticks of 10 ms, whose bounds a number of 12 significant digits names exactly
 * (docs/platform.md §Feeds). A new position takes one of the first 100 microseconds after a bound, never a bound itself, so one rounded
 * to 12 digits falls to the bound below it (a client that rounds it lists that tick again rather than skip what
 * follows), and a tick holds no more positions than a page of the default limit.
 */
const MICROS_PER_MS = 1000;
const MICROS_PER_SECOND = 1_000_000;
export const TICK_MICROS = 10_000;
/** The positions a tick gives: microseconds 1 to 100 after its bound. */
export const POSITIONS_PER_TICK = 100;
/** The most positions a tick of an earlier version holds: every microsecond of it. */
export const MOST_PER_TICK = TICK_MICROS;

export const toMicros = (position: number): number => Math.round(position * MICROS_PER_SECOND);
export const fromMicros = (micros: number): number => micros / MICROS_PER_SECOND;

/** The first position at or after `micros`. */
function slot(micros: number): number {
  const within = ((micros % TICK_MICROS) + TICK_MICROS) % TICK_MICROS;
  if (within === 0) return micros + 1;
  return within > POSITIONS_PER_TICK ? micros - within + TICK_MICROS + 1 : micros;
}

/** The position of a wall-clock instant: its tick, and its place in the tick scaled into the positions it gives. */
function wallPosition(ms: number): number {
  const micros = Math.round(ms * MICROS_PER_MS);
  const within = ((micros % TICK_MICROS) + TICK_MICROS) % TICK_MICROS;
  return micros - within + 1 + Math.floor((within * POSITIONS_PER_TICK) / TICK_MICROS);
}

/** `count` consecutive positions after `last`, the first no earlier than the wall time `nowMs`. */
export function positionsAfter(last: number, nowMs: number, count: number): number[] {
  let micros = Math.max(slot(toMicros(last) + 1), wallPosition(nowMs));
  const positions: number[] = [];
  for (let i = 0; i < count; i++, micros = slot(micros + 1)) positions.push(fromMicros(micros));
  return positions;
}

/** Whether a position is a tick's bound (which no new position is). */
export const isTickBound = (position: number): boolean => toMicros(position) % TICK_MICROS === 0;

/**
 * The bounds of the tick of `position` read in the direction of a page: ascending, the tick runs from its lower bound
 * (included) to the next; descending, from its upper bound (included) down to the one before. They differ only for a
 * position on a bound, which an earlier version could give.
 */
export function tickOf(position: number, descending: boolean): { start: number; end: number } {
  const micros = toMicros(position);
  if (descending) {
    const upper = Math.ceil(micros / TICK_MICROS) * TICK_MICROS;
    return { start: fromMicros(upper), end: fromMicros(upper - TICK_MICROS) };
  }
  const lower = Math.floor(micros / TICK_MICROS) * TICK_MICROS;
  return { start: fromMicros(lower), end: fromMicros(lower + TICK_MICROS) };
}

/**
 * A hybrid logical clock of positions: each one after every position it issued or observed, and no earlier than its
 * wall clock. `floor()` promises a bound that every later position keeps, even if the wall clock steps back.
 * The wall clock counts milliseconds; each clock starts its positions at a microsecond of its own within them, so
 * that nodes stamping in the same millisecond seldom meet on one position.
 */
export class PositionClock {
  private last = 0;
  private readonly offsetMs = Math.floor(Math.random() * MICROS_PER_MS) / MICROS_PER_MS;

  constructor(private readonly wallMs: () => number = Date.now) {}

  /** `count` fresh consecutive positions. */
  next(count = 1): number[] {
    const positions = positionsAfter(fromMicros(this.last), this.wallMs() + this.offsetMs, count);
    this.last = toMicros(positions[positions.length - 1]);
    return positions;
  }

  /** Moves the clock past a position read or written elsewhere (Lamport's rule). */
  observe(position: number): void {
    this.last = Math.max(this.last, toMicros(position));
  }

  /**
   * Moves the clock past a position another node took, by a random part of a millisecond more: that node's next
   * positions follow it one microsecond apart, and a clock that only stepped past would meet them again.
   */
  skipPast(position: number): void {
    this.observe(fromMicros(toMicros(position) + Math.floor(Math.random() * MICROS_PER_MS)));
  }

  /** The least position `next` can give from now on; the clock keeps it even if the wall clock steps back. */
  floor(): number {
    this.last = Math.max(this.last, wallPosition(this.wallMs() + this.offsetMs) - 1);
    return fromMicros(slot(this.last + 1));
  }
}
