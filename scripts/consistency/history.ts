import { writeFileSync } from 'node:fs';

/** An Elle list-append micro-op: an append of one element, or a read of the whole list (null before it completes). */
export type MicroOp = ['append', string, number] | ['r', string, number[] | null];

/** How an operation ended: applied, certainly not applied, or unknown (Elle's ok, fail and info). */
export type Outcome = 'ok' | 'fail' | 'info';

interface Recorded {
  process: number;
  invokedNs: bigint;
  completedNs: bigint;
  type: Outcome;
  value: MicroOp[];
}

/**
 * A run's history in Elle's list-append model (docs/cluster.md §Independent checker): each framework is a key, each
 * write appends its version to the list the framework's description carries, each read returns that list. Operations
 * are kept with their times and written in time order, invocations and completions interleaved as Jepsen records them.
 */
export class History {
  private readonly ops: Recorded[] = [];
  private readonly origin = process.hrtime.bigint();

  /** Starts an operation of client `session` (Elle's process); call the returned function with its outcome and final micro-ops. */
  begin(session: number): (type: Outcome, value: MicroOp[]) => void {
    const invokedNs = this.now();
    return (type, value) => this.ops.push({ process: session, invokedNs, completedNs: this.now(), type, value });
  }

  get size(): number {
    return this.ops.length;
  }

  /** Operations by outcome: Jepsen's ok, failed and indeterminate. */
  outcomes(): Record<Outcome, number> {
    const counts = { ok: 0, fail: 0, info: 0 };
    for (const op of this.ops) counts[op.type]++;
    return counts;
  }

  /** JSON lines, one per invocation and completion: what `adya check -m list-append` and elle-cli read. */
  toJsonLines(): string {
    const events = this.ops.flatMap((op) => [
      { at: op.invokedNs, op, completion: false },
      { at: op.completedNs, op, completion: true },
    ]);
    events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : Number(a.completion) - Number(b.completion)));
    return events
      .map(({ at, op, completion }, index) =>
        JSON.stringify({
          index,
          time: Number(at),
          process: op.process,
          type: completion ? op.type : 'invoke',
          f: 'txn',
          value: completion ? op.value : op.value.map(([f, k, v]) => (f === 'r' ? [f, k, null] : [f, k, v])),
        }),
      )
      .join('\n')
      .concat('\n');
  }

  write(path: string): void {
    writeFileSync(path, this.toJsonLines());
  }

  private now(): bigint {
    return process.hrtime.bigint() - this.origin;
  }
}
