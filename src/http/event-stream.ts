import type { ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';

/** Why a stream ended: its client left, fell a buffer behind, the node is stopping, or its reads failed. */
export type EndReason = 'closed' | 'slow' | 'shutdown' | 'error';

/**
 * One Server-Sent Events response (docs/platform.md §Live feed): `id:`/`data:` events and comments written into
 * `body`, which Koa pipes to the client. What the client has not taken yet is bounded: a stream that still has more
 * than `bufferBytes` waiting when more is to be written to it (`keepsUp`) has its connection cut, which frees what
 * waits at once; the client resumes from the last id it got. So it holds at most that and one entry. A
 * comment is written at once, so the response's headers leave before the first event.
 */
export class EventStream {
  readonly body = new PassThrough();
  private reason: EndReason | null = null;
  /** What waited at the last keep-alive. */
  private waitingBefore = 0;
  private readonly finished: Promise<void>;

  constructor(
    private readonly res: ServerResponse,
    readonly bufferBytes: number,
    onEnd: (reason: EndReason) => void,
  ) {
    this.finished = new Promise((resolve) => {
      res.once('close', () => {
        this.reason ??= 'closed';
        onEnd(this.reason);
        resolve();
      });
    });
    this.comment();
  }

  get open(): boolean {
    return this.reason === null;
  }

  /** Bytes written that the socket has not taken yet. */
  waiting(): number {
    return this.body.writableLength + this.body.readableLength + this.res.writableLength;
  }

  event(id: string, data: Buffer): void {
    if (!this.open) return;
    this.body.write(Buffer.concat([Buffer.from(`id: ${id}\ndata: `), data, Buffer.from('\n\n')]));
  }

  /** Whether the client has taken all but `bufferBytes` of what was written; if not, the stream is cut. */
  keepsUp(): boolean {
    if (this.open && this.waiting() > this.bufferBytes) this.cut('slow');
    return this.open;
  }

  /**
   * Every keep-alive interval: a comment line, which proxies see as traffic, on a stream where nothing waits; a stream
   * with more than its buffer waiting that took nothing since the last one is cut (a client that stopped reading while
   * it was being sent the feed's past, which waits for `room` rather than checking `keepsUp`).
   */
  keepAlive(): void {
    const waiting = this.waiting();
    if (waiting === 0) this.comment();
    else if (waiting > this.bufferBytes && waiting >= this.waitingBefore) this.cut('slow');
    this.waitingBefore = waiting;
  }

  /** A comment line; the first sends the response's headers. */
  private comment(): void {
    if (!this.open) return;
    this.body.write(':\n\n');
  }

  /**
   * Resolves once no more than `bufferBytes` wait for the client, or the stream has ended: the next entry is rendered
   * only then, so a stream holds at most its buffer and one entry (docs/platform.md §Live feed). Bytes leave as the
   * body hands them to the response (`data`) and the response to the socket (`drain`).
   */
  async room(): Promise<void> {
    while (this.open && this.waiting() > this.bufferBytes) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.body.off('data', done);
          this.res.off('drain', done);
          this.res.off('close', done);
          resolve();
        };
        this.body.once('data', done);
        this.res.once('drain', done);
        this.res.once('close', done);
      });
    }
  }

  /** Ends the response after what is written; resolves when the connection has finished with it. */
  end(reason: EndReason): Promise<void> {
    if (this.open) {
      this.reason = reason;
      this.body.end();
    }
    return this.finished;
  }

  /** Drops the connection and what waits in it. */
  cut(reason: EndReason): void {
    if (this.open) this.reason = reason;
    this.res.destroy();
  }
}
