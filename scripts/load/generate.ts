import { randomBytes } from 'node:crypto';
import type { ObjectDoc } from '../../src/domain/core/objects';
import { ownerSecretsOf } from '../../src/security/tokens';

/** Hex ids and owner tokens (CSPRNG) drawn in bulk: one `randomBytes` call per thousand instead of one each. */
export class IdPool {
  private buf = Buffer.alloc(0);
  private at = 0;
  next(): string {
    if (this.at + 16 > this.buf.length) {
      this.buf = randomBytes(16 * 1024);
      this.at = 0;
    }
    this.at += 16;
    return this.buf.toString('hex', this.at - 16, this.at);
  }
}

const kyiv = (ms: number) => new Date(ms + 2 * 3_600_000).toISOString().replace('Z', '+02:00');

/**
 * The i-th tender from a template: new ids, tenderID, title, amounts, dates, one to four items (so sizes vary
 * as real tenders do), fresh owner-token hashes. Unchanged parts are shared with the template: the result is
 * serialised at once and never mutated.
 */
export function varyTender(tpl: ObjectDoc, i: number, ids: IdPool, modifiedMs: number): ObjectDoc {
  const id = ids.next();
  const stamp = kyiv(modifiedMs);
  const day = stamp.slice(0, 10);
  const items = (tpl.data.items ?? []) as any[];
  const n = 1 + (i % 4);
  const data = {
    ...tpl.data,
    id,
    tenderID: `UA-${day}-${String(i % 1_000_000).padStart(6, '0')}-a`,
    title: `${tpl.data.title} №${i}`,
    value: tpl.data.value ? { ...tpl.data.value, amount: 1000 + ((i * 7919) % 9_000_000) / 10 } : undefined,
    items: items.length
      ? Array.from({ length: n }, (_, k) => ({ ...items[k % items.length], id: ids.next(), quantity: 1 + ((i + k) % 50) }))
      : undefined,
    date: stamp,
    dateCreated: stamp,
    dateModified: stamp,
  };
  return { ...tpl, data, secrets: tpl.secrets ? ownerSecretsOf({ token: ids.next(), transfer: ids.next() }) : undefined };
}

export function varyFramework(tpl: ObjectDoc, i: number, ids: IdPool, modifiedMs: number): ObjectDoc {
  const stamp = kyiv(modifiedMs);
  const data = {
    ...tpl.data,
    id: ids.next(),
    prettyID: `UA-F-${stamp.slice(0, 10)}-${String(i % 1_000_000).padStart(6, '0')}`,
    title: `${tpl.data.title} №${i}`,
    date: stamp,
    dateCreated: stamp,
    dateModified: stamp,
  };
  return { ...tpl, data, secrets: tpl.secrets ? ownerSecretsOf({ token: ids.next(), transfer: ids.next() }) : undefined };
}

/** Keeps a uniform sample of at most `size` values over everything ever offered (Algorithm R). */
export class Reservoir {
  constructor(
    readonly size: number,
    public seen = 0,
    public values: string[] = [],
  ) {}
  offer(value: string) {
    this.seen++;
    if (this.values.length < this.size) this.values.push(value);
    else {
      const j = Math.floor(Math.random() * this.seen);
      if (j < this.size) this.values[j] = value;
    }
  }
}
