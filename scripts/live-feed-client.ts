import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

/** One Server-Sent Event: its `id:` and its `data:` (a feed entry's JSON), or a comment (`data` null). */
export interface LiveEvent {
  id: string | null;
  data: string | null;
}

/** A live feed response: its status and headers; an error's JSON body; the events as they come. */
export interface LiveFeed {
  status: number;
  headers: IncomingHttpHeaders;
  /** The JSON body of a response that is not a stream (an error). */
  body?: any;
  /** The next event (comments included), or null when the stream ended or `timeoutMs` passed first. */
  next(timeoutMs: number): Promise<LiveEvent | null>;
  /** Whether the server ended the stream (or the connection dropped). */
  readonly ended: boolean;
  /** Stops reading without closing: the client becomes a slow consumer (which sees no end until it resumes). */
  pause(): void;
  resume(): void;
  close(): void;
}

/**
 * A minimal SSE reader over node:http (docs/platform.md §Live feed) for the tests, the bench and the consistency
 * check: sends `Accept: text/event-stream` and the given headers (`Last-Event-ID`, `Authorization`), and splits
 * the body into events at blank lines.
 */
export function openLiveFeed(url: string, headers: Record<string, string> = {}): Promise<LiveFeed> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } });
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      if (!String(res.headers['content-type']).startsWith('text/event-stream')) {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined, ...closedFeed });
        });
        return;
      }
      const queue: LiveEvent[] = [];
      const waiters: (() => void)[] = [];
      let buffered = '';
      let ended = false;
      const wakeAll = () => waiters.splice(0).forEach((wake) => wake());
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          let id: string | null = null;
          let data: string | null = null;
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('data: ')) data = data === null ? line.slice(6) : `${data}\n${line.slice(6)}`;
          }
          queue.push({ id, data });
        }
        wakeAll();
      });
      const finish = () => {
        ended = true;
        wakeAll();
      };
      res.on('end', finish);
      res.on('error', finish);
      // A paused response learns of nothing: its connection's end tells.
      res.socket.on('close', finish);
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        get ended() {
          return ended;
        },
        async next(timeoutMs) {
          const deadline = Date.now() + timeoutMs;
          while (!queue.length && !ended && Date.now() < deadline) {
            await new Promise<void>((wake) => {
              const timer = setTimeout(wake, deadline - Date.now());
              waiters.push(() => {
                clearTimeout(timer);
                wake();
              });
            });
          }
          return queue.shift() ?? null;
        },
        pause: () => res.pause(),
        resume: () => res.resume(),
        close: () => req.destroy(),
      });
    });
    req.end();
  });
}

const closedFeed = {
  ended: true,
  next: async () => null,
  pause: () => undefined,
  resume: () => undefined,
  close: () => undefined,
};
