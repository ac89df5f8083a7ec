/** The source of "now": read once per request or job run and injected, so tests move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => new Date(),
};

/** A clock that stands still until a test sets or advances it. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Jumps to the given instant. */
  set(date: Date): void {
    this.current = date.getTime();
  }

  /** Moves forward (or back, with a negative value) by `ms` milliseconds. */
  advance(ms: number): void {
    this.current += ms;
  }
}
