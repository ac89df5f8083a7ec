/**
 * Fast loader: `npm run load -- --tenders N --frameworks M [--db PATH]`. Writes through the store port in
 * batched transactions; documents are the shapes the API stores (see templates.ts), a share restricted
 * (`config.restricted: true`) and a share drafts (kept out of feeds by the store's index). Appends to what the
 * store holds and keeps a manifest of sampled ids next to the database for the benchmark.
 */
import { SingleBar, Presets } from 'cli-progress';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type ObjectDoc } from '../../src/domain/core/objects';
import { insertOf } from '../../src/domain/save-rules';
import type { Change } from '../../src/store/port';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { IdPool, Reservoir, varyFramework, varyTender } from './generate';
import { makeTemplates, type Templates } from './templates';
import { parseCli } from '../cli';

export interface Manifest {
  templateSource: Templates['source'];
  notes: string[];
  counts: { active: number; restricted: number; draft: number; frameworks: number };
  /** Uniform samples of ids per category, for random reads. */
  samples: { active: string[]; restricted: string[]; draft: string[]; frameworks: string[] };
  /** Stored size of each template document, in bytes of JSON. */
  docBytes: { active: number; restricted: number; draft: number; framework: number };
  bodies: Templates['bodies'];
}

export interface LoadOptions {
  db: string;
  tenders: number;
  frameworks: number;
  restrictedShare: number;
  draftShare: number;
  batch: number;
  /** SQLite page cache for the load, MiB. */
  cacheMiB: number;
  sample: number;
  progress: boolean;
  /** Templates already made (by an earlier load of the same run); made afresh when absent. */
  templates?: Templates;
}

export const manifestPath = (db: string) => `${db}.manifest.json`;

/** The manifest of a loaded file, or null when the file or its manifest is missing. */
export function loadedManifest(db: string): Manifest | null {
  const path = manifestPath(db);
  return existsSync(path) && existsSync(db) ? (JSON.parse(readFileSync(path, 'utf8')) as Manifest) : null;
}

export async function load(o: LoadOptions): Promise<Manifest> {
  const previous = loadedManifest(o.db);
  const templates = o.templates ?? (await makeTemplates());
  const reservoir = (k: keyof Manifest['samples']) =>
    new Reservoir(o.sample, previous ? previous.counts[k === 'frameworks' ? 'frameworks' : k] : 0, previous?.samples[k] ?? []);
  const samples = {
    active: reservoir('active'),
    restricted: reservoir('restricted'),
    draft: reservoir('draft'),
    frameworks: reservoir('frameworks'),
  };
  const counts = previous ? { ...previous.counts } : { active: 0, restricted: 0, draft: 0, frameworks: 0 };
  const store = openSqliteStore(o.db, { cacheMiB: o.cacheMiB });
  const session = store.session();
  const ids = new IdPool();
  const total = o.tenders + o.frameworks;
  const bar = o.progress
    ? new SingleBar(
        { format: 'load [{bar}] {percentage}% | {value}/{total} | {rate}/s | ETA {eta}s', noTTYOutput: true, notTTYSchedule: 5000 },
        Presets.shades_classic,
      )
    : null;
  bar?.start(total, 0, { rate: 0 });
  const started = Date.now();
  // Older objects first: dateModified grows with the feed order, as it does in a live registry.
  let clock = Date.now() - (total + 1) * 1000;
  let done = 0;
  const flush = async (changes: Change[]) => {
    if (!changes.length) return;
    await session.commit(changes);
    done += changes.length;
    bar?.update(done, { rate: Math.round(done / Math.max((Date.now() - started) / 1000, 0.001)) });
    changes.length = 0;
    // Commits are synchronous underneath: without a turn of the event loop the bar's timer never draws.
    await new Promise((resolve) => setImmediate(resolve));
  };
  const changes: Change[] = [];
  const base = counts.active + counts.restricted + counts.draft;
  for (let i = 0; i < o.tenders; i++) {
    const n = base + i;
    // Spread the shares evenly over the sequence, so any feed window holds the same mix.
    const r = (n * 0.618033988749895) % 1;
    const kind = r < o.draftShare ? 'draft' : r < o.draftShare + o.restrictedShare ? 'restricted' : 'active';
    const doc: ObjectDoc = varyTender(templates.tender[kind], n, ids, (clock += 1000));
    changes.push(insertOf('tenders', doc));
    counts[kind]++;
    samples[kind].offer(doc.data.id);
    if (changes.length >= o.batch) await flush(changes);
  }
  for (let i = 0; i < o.frameworks; i++) {
    const doc = varyFramework(templates.framework, counts.frameworks, ids, (clock += 1000));
    changes.push(insertOf('frameworks', doc));
    counts.frameworks++;
    samples.frameworks.offer(doc.data.id);
    if (changes.length >= o.batch) await flush(changes);
  }
  await flush(changes);
  bar?.stop();
  await store.close();
  const bytes = (d: ObjectDoc) => Buffer.byteLength(JSON.stringify(d));
  const manifest: Manifest = {
    templateSource: templates.source,
    notes: templates.notes,
    counts,
    samples: {
      active: samples.active.values,
      restricted: samples.restricted.values,
      draft: samples.draft.values,
      frameworks: samples.frameworks.values,
    },
    docBytes: {
      active: bytes(templates.tender.active),
      restricted: bytes(templates.tender.restricted),
      draft: bytes(templates.tender.draft),
      framework: bytes(templates.framework),
    },
    bodies: templates.bodies,
  };
  writeFileSync(manifestPath(o.db), JSON.stringify(manifest));
  const seconds = (Date.now() - started) / 1000;
  if (o.progress) {
    process.stderr.write(
      `loaded ${o.tenders} tenders and ${o.frameworks} frameworks in ${seconds.toFixed(1)} s (${Math.round(total / seconds)}/s), templates from ${templates.source}\n`,
    );
    for (const note of templates.notes) process.stderr.write(`  note: ${note}\n`);
  }
  return manifest;
}

if (require.main === module) {
  const { values } = parseCli(
    `usage: npm run load -- [--db FILE] [--tenders N] [--frameworks N] [--restricted SHARE] [--drafts SHARE]
                       [--batch N] [--cache-mib MIB] [--sample N] [--quiet]

Writes generated tenders and frameworks straight into a SQLite store through the store port (no HTTP), for
benchmarks at large sizes.

  --db FILE            the SQLite file (default data/registry.db)
  --tenders N          tenders (default 1000)
  --frameworks N       frameworks (default 0)
  --restricted SHARE   share of restricted tenders (default 0.1)
  --drafts SHARE       share of draft tenders (default 0.05)
  --batch N            objects per transaction (default 20000)
  --cache-mib MIB      SQLite page cache while loading (default 256)
  --sample N           ids kept per kind for the bench's random reads (default 20000)
  --quiet              no progress bar
  -h, --help           this text`,
    {
      db: { type: 'string', default: 'data/registry.db' },
      tenders: { type: 'string', default: '1000' },
      frameworks: { type: 'string', default: '0' },
      restricted: { type: 'string', default: '0.1' },
      drafts: { type: 'string', default: '0.05' },
      batch: { type: 'string', default: '20000' },
      'cache-mib': { type: 'string', default: '256' },
      sample: { type: 'string', default: '20000' },
      quiet: { type: 'boolean', default: false },
    },
  );
  load({
    db: values.db,
    tenders: Number(values.tenders),
    frameworks: Number(values.frameworks),
    restrictedShare: Number(values.restricted),
    draftShare: Number(values.drafts),
    batch: Number(values.batch),
    cacheMiB: Number(values['cache-mib']),
    sample: Number(values.sample),
    progress: !values.quiet,
  }).catch((err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  });
}
