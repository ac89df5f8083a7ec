import type { Statements } from './statements';
import { guard } from './sqlite-errors';

const CATCH_UP_POLL_MS = 5;

/**
 * How far this connection's view of the file is known to reach. With one shared file every commit is visible at
 * once; a causal token ahead of that view means a writer we cannot see yet (or another database altogether), so
 * `reach` waits a bounded time and then serves what there is. Commits are never un-seen, so a token at or below
 * any seq this connection has met needs no query.
 */
export class CausalCatchUp {
  /** The highest position this connection has met. */
  visible = 0;

  constructor(
    private readonly sql: Statements,
    private readonly timeoutMs: number,
  ) {}

  see(seq: number): void {
    if (seq > this.visible) this.visible = seq;
  }

  async reach(target: number): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    while (target > this.visible) {
      this.visible = Math.max(
        this.visible,
        guard(() => this.sql.lastSeq.get()?.value ?? 0),
      );
      if (target <= this.visible || Date.now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, CATCH_UP_POLL_MS));
    }
  }
}
