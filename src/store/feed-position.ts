/**
 * Feed positions (docs/platform.md §Feeds): float UNIX seconds in steps of a microsecond, strictly increasing in
 * commit order. Computed in whole microseconds, which a double holds exactly until the year 2255; the seconds are
 * the nearest double to them, so their order is the microseconds' order.
 */
const MICROS_PER_MS = 1000;
const MICROS_PER_SECOND = 1_000_000;

export const toMicros = (position: number): number => Math.round(position * MICROS_PER_SECOND);
export const fromMicros = (micros: number): number => micros / MICROS_PER_SECOND;

/** `count` consecutive positions after `last`, the first no earlier than the wall time `nowMs`: max(last + 1 µs, now). */
export function positionsAfter(last: number, nowMs: number, count: number): number[] {
  const first = Math.max(toMicros(last) + 1, Math.round(nowMs * MICROS_PER_MS));
  return Array.from({ length: count }, (_, i) => fromMicros(first + i));
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
    this.last = Math.max(this.last, Math.round((this.wallMs() + this.offsetMs) * MICROS_PER_MS) - 1);
    return fromMicros(this.last + 1);
  }
}
