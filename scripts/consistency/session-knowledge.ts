import type { Guarantee } from './violations';

/** What one session has learnt about one object, and how: the source decides which guarantee a regression breaks. */
interface Known {
  /** Highest version this session wrote and had acknowledged. */
  wrote: number;
  /** Highest version this session read. */
  read: number;
  /** Highest version implied by a write this session saw that was made after reading this object. */
  dependency: number;
  /** Latest dateModified (epoch ms) the session saw with any of those. */
  dateModified: number;
}

const empty = (): Known => ({ wrote: -1, read: -1, dependency: -1, dateModified: -Infinity });

/** One session's causal past, per object, and the checks a new observation must pass against it. */
export class SessionKnowledge {
  private readonly objects = new Map<string, Known>();

  private known(id: string): Known {
    let k = this.objects.get(id);
    if (!k) this.objects.set(id, (k = empty()));
    return k;
  }

  /** The guarantee broken if `id` is seen at `version`, or null. A missing object is version -1. */
  regression(id: string, version: number): { guarantee: Guarantee; expected: number } | null {
    const k = this.objects.get(id);
    if (!k) return null;
    if (version < k.wrote) return { guarantee: 'read-your-writes', expected: k.wrote };
    if (version < k.read) return { guarantee: 'monotonic-reads', expected: k.read };
    if (version < k.dependency) return { guarantee: 'writes-follow-reads', expected: k.dependency };
    return null;
  }

  /** A feed entry older than what the session has seen of that object. */
  feedRegression(id: string, dateModified: number): boolean {
    const k = this.objects.get(id);
    return !!k && dateModified < k.dateModified;
  }

  wrote(id: string, version: number, dateModified: number): void {
    const k = this.known(id);
    k.wrote = Math.max(k.wrote, version);
    k.dateModified = Math.max(k.dateModified, dateModified);
  }

  read(id: string, version: number, dateModified: number): void {
    const k = this.known(id);
    k.read = Math.max(k.read, version);
    k.dateModified = Math.max(k.dateModified, dateModified);
  }

  /** Seeing a write made after its author read `id` at `version` puts that read in this session's past. */
  dependsOn(id: string, version: number): void {
    const k = this.known(id);
    k.dependency = Math.max(k.dependency, version);
  }

  lastWrite(id: string): number {
    return this.objects.get(id)?.wrote ?? -1;
  }
}
