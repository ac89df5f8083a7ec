/** Latency samples in milliseconds and their percentiles. */
export class Latencies {
  private samples: number[] = [];

  add(ms: number): void {
    this.samples.push(ms);
  }

  percentile(p: number): number {
    if (!this.samples.length) return 0;
    const sorted = [...this.samples].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  }
}
