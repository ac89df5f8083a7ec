import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Ctx } from './context';
import { apiJson } from '../store/api-json';

/** Lets whatever waits on the event loop (other requests, I/O) run before going on (docs/platform.md §Limits). */
export const yieldLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** About how many bytes of an answer go to the socket at once (docs/platform.md §Limits). */
export const PART_BYTES = 64 * 1024;

/** What a placeholder stands for: pieces, with the bytes before, between and after them. */
interface Splice {
  open: Buffer;
  separator: Buffer;
  close: Buffer;
  pieces: Buffer[];
  bytes: number;
}

/**
 * A whole answer, rendered: its length, and its bytes in the order they are sent, about `PART_BYTES` at a time, the
 * event loop given back after each (a socket on loopback takes megabytes at once).
 */
export interface SplicedText {
  length: number;
  parts(): AsyncGenerator<Buffer>;
}

const NOTHING = Buffer.alloc(0);

/**
 * A large JSON answer written piece by piece (docs/platform.md §Limits): each piece (a list's element, a member's
 * value) is rendered alone, so its maker can give the event loop back between pieces, and the bytes are counted as
 * they are rendered, so an answer over `limit` is refused (`overLimit`) before more of it is built. The small rest,
 * the skeleton, is rendered last with placeholders where the pieces go; the answer is never joined into one buffer,
 * but sent a part at a time as the client takes it (`sendSpliced`). `indent` indents as `opt_pretty` does: a piece
 * is rendered knowing the nesting level of the line it starts on.
 */
export class SplicedJson {
  private readonly mark = `\u0000${randomUUID()}:`;
  private readonly spliced: Splice[] = [];
  private size = 0;

  constructor(
    private readonly indent: number | undefined,
    private readonly limit = Infinity,
    private readonly overLimit: () => Error = () => new Error('over limit'),
  ) {}

  /** `value` as JSON text that starts on a line nested `level` deep (the root's is 0), counted against the limit. */
  render(value: unknown, level: number): Buffer {
    const text = apiJson(value, this.indent);
    const piece = Buffer.from(this.indent ? text.replace(/\n/g, `\n${this.pad(level)}`) : text);
    this.count(piece.length);
    return piece;
  }

  /** The bytes rendered so far, less those taken back. */
  get rendered(): number {
    return this.size;
  }

  /** Takes back a rendered piece that the answer leaves out. */
  drop(piece: Buffer): void {
    this.size -= piece.length;
  }

  /** The placeholder of a list of pieces rendered at `level + 1`, for a member whose line is nested `level` deep. */
  list(pieces: Buffer[], level: number): string {
    if (!pieces.length) return this.placeholder(Buffer.from('[]'), NOTHING, NOTHING, []);
    const [open, separator, close] = this.indent
      ? [`[\n${this.pad(level + 1)}`, `,\n${this.pad(level + 1)}`, `\n${this.pad(level)}]`]
      : ['[', ',', ']'];
    return this.placeholder(Buffer.from(open), Buffer.from(separator), Buffer.from(close), pieces);
  }

  /** The placeholder of one piece, for a member whose line is nested as deep as the piece was rendered. */
  value(piece: Buffer): string {
    return this.placeholder(NOTHING, NOTHING, NOTHING, [piece]);
  }

  /** The whole answer: `skeleton` rendered, each placeholder it holds standing for its pieces. */
  text(skeleton: unknown): SplicedText {
    const json = apiJson(skeleton, this.indent);
    // A placeholder as JSON text (its NUL escaped); the random mark is in no text of the data.
    const opening = `"${JSON.stringify(this.mark).slice(1, -1)}`;
    const between: Buffer[] = [];
    const splices: Splice[] = [];
    let at = 0;
    for (let found = json.indexOf(opening); found >= 0; found = json.indexOf(opening, at)) {
      const end = json.indexOf('"', found + opening.length);
      between.push(Buffer.from(json.slice(at, found)));
      splices.push(this.spliced[Number(json.slice(found + opening.length, end))]);
      at = end + 1;
    }
    between.push(Buffer.from(json.slice(at)));
    const length = between.reduce((sum, text) => sum + text.length, 0) + splices.reduce((sum, splice) => sum + splice.bytes, 0);
    if (length > this.limit) throw this.overLimit();
    return { length, parts: () => joined(between, splices) };
  }

  private placeholder(open: Buffer, separator: Buffer, close: Buffer, pieces: Buffer[]): string {
    let bytes = open.length + close.length + separator.length * Math.max(0, pieces.length - 1);
    for (const piece of pieces) bytes += piece.length;
    this.spliced.push({ open, separator, close, pieces, bytes });
    return `${this.mark}${this.spliced.length - 1}`;
  }

  private count(bytes: number) {
    this.size += bytes;
    if (this.size > this.limit) throw this.overLimit();
  }

  private pad(level: number): string {
    return ' '.repeat(level * (this.indent ?? 0));
  }
}

/** The skeleton's texts with the splices between them, in order. */
function* sequence(between: Buffer[], splices: Splice[]): Generator<Buffer> {
  for (let i = 0; i < between.length; i++) {
    yield between[i];
    const splice = splices[i];
    if (!splice) continue;
    yield splice.open;
    for (let n = 0; n < splice.pieces.length; n++) {
      if (n) yield splice.separator;
      yield splice.pieces[n];
    }
    yield splice.close;
  }
}

/** The answer's bytes joined into parts of about `PART_BYTES`, the event loop given back after each. */
async function* joined(between: Buffer[], splices: Splice[]): AsyncGenerator<Buffer> {
  let batch: Buffer[] = [];
  let bytes = 0;
  for (const buffer of sequence(between, splices)) {
    batch.push(buffer);
    bytes += buffer.length;
    if (bytes < PART_BYTES) continue;
    yield Buffer.concat(batch, bytes);
    batch = [];
    bytes = 0;
    await yieldLoop();
  }
  if (bytes) yield Buffer.concat(batch, bytes);
}

/** Sends a rendered answer as JSON, its length told, a part at a time as the client takes it (docs/platform.md §Limits). */
export function sendSpliced(ctx: Ctx, text: SplicedText): void {
  ctx.type = 'json';
  ctx.body = Readable.from(text.parts(), { objectMode: false });
  ctx.length = text.length;
}
