export const GUARANTEES = ['read-your-writes', 'monotonic-reads', 'monotonic-writes', 'writes-follow-reads', 'lost-write'] as const;
export type Guarantee = (typeof GUARANTEES)[number];

export interface Violation {
  guarantee: Guarantee;
  client: number;
  detail: string;
}

/** Every violation counted by guarantee, with the first few kept for the report. */
export class Violations {
  readonly counts = Object.fromEntries(GUARANTEES.map((g) => [g, 0])) as Record<Guarantee, number>;
  readonly examples: Violation[] = [];

  add(v: Violation): void {
    this.counts[v.guarantee]++;
    if (this.examples.length < 20) this.examples.push(v);
  }

  total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }
}
