import { randomUUID } from 'node:crypto';
import { apiJson } from '../store/api-json';

/** Lets whatever waits on the event loop (other requests, I/O) run before going on (docs/platform.md §Limits). */
export const yieldLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A large JSON answer written piece by piece (docs/platform.md §Limits): each piece (a list's element, a member's
 * value) is rendered alone, so its maker can give the event loop back between pieces, and the bytes are counted as
 * they are rendered, so an answer over `limit` is refused (`overLimit`) before more of it is built. The small rest,
 * the skeleton, is rendered last with placeholders where the pieces go. `indent` indents as `opt_pretty` does: a
 * piece is rendered knowing the nesting level of the line it starts on.
 */
export class SplicedJson {
  private readonly mark = `\u0000${randomUUID()}:`;
  private readonly spliced: Buffer[][] = [];
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

  /** Takes back a rendered piece that the answer leaves out. */
  drop(piece: Buffer): void {
    this.size -= piece.length;
  }

  /** The placeholder of a list of pieces rendered at `level + 1`, for a member whose line is nested `level` deep. */
  list(pieces: Buffer[], level: number): string {
    if (!pieces.length) return this.placeholder([Buffer.from('[]')]);
    const [open, separator, close] = this.indent
      ? [`[\n${this.pad(level + 1)}`, `,\n${this.pad(level + 1)}`, `\n${this.pad(level)}]`]
      : ['[', ',', ']'];
    const sep = Buffer.from(separator);
    const parts: Buffer[] = [Buffer.from(open)];
    pieces.forEach((piece, i) => parts.push(...(i ? [sep, piece] : [piece])));
    parts.push(Buffer.from(close));
    return this.placeholder(parts);
  }

  /** The placeholder of one piece, for a member whose line is nested as deep as the piece was rendered. */
  value(piece: Buffer): string {
    return this.placeholder([piece]);
  }

  /** The whole answer: `skeleton` rendered, each placeholder it holds replaced by its pieces. */
  text(skeleton: unknown): Buffer {
    const json = apiJson(skeleton, this.indent);
    // A placeholder as JSON text (its NUL escaped); the random mark is in no text of the data.
    const opening = `"${JSON.stringify(this.mark).slice(1, -1)}`;
    const parts: Buffer[] = [];
    let at = 0;
    for (let found = json.indexOf(opening); found >= 0; found = json.indexOf(opening, at)) {
      const end = json.indexOf('"', found + opening.length);
      parts.push(Buffer.from(json.slice(at, found)), ...this.spliced[Number(json.slice(found + opening.length, end))]);
      at = end + 1;
    }
    parts.push(Buffer.from(json.slice(at)));
    const body = Buffer.concat(parts);
    if (body.length > this.limit) throw this.overLimit();
    return body;
  }

  private placeholder(parts: Buffer[]): string {
    this.spliced.push(parts);
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
