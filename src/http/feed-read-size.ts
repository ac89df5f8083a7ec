/**
 * How many entries a feed reads from the store at once, so that one read holds about `budget` bytes of entries
 * (docs/platform.md §Limits): as many as the largest entry of the last read leaves room for, at least 1 and at
 * most `most`; one until an entry was seen, which tells its size. Entries near the body limit are read one at a time.
 */
export class ReadSize {
  constructor(
    private readonly budget: number,
    private readonly most: number,
    private largest = 0,
  ) {}

  get entries(): number {
    return this.largest ? Math.min(this.most, Math.max(1, Math.floor(this.budget / this.largest))) : 1;
  }

  /** The largest entry seen so far, in bytes, for the next read of this feed to start from. */
  get largestEntry(): number {
    return this.largest;
  }

  /** The sizes of a read's entries, in bytes. */
  saw(sizes: readonly number[]): void {
    if (sizes.length) this.largest = sizes.reduce((a, b) => Math.max(a, b), 0);
  }
}
