/**
 * Microbenchmark of the store side of `GET /{kind}/{id}` on a loaded SQLite file (`npm run bench -- --keep-db`):
 * the JS rendering (get, then JSON.stringify of `{data, config}`), the store's view, and the check of a kept
 * version, by its object's seq and once confirmed with nothing committed since. Random ids, so the pages are as
 * cold as the file and the page cache make them.
 *
 *   npx tsx scripts/bench/object-reads.ts scripts/results/bench.db [rounds] [reads]
 */
import Database from 'better-sqlite3';
import type { KeptVersion } from '../../src/store/port';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import { parseCli } from '../cli';

const USAGE = `usage: npx tsx scripts/bench/object-reads.ts DB [ROUNDS] [READS]

The store side of GET /{kind}/{id} on a loaded SQLite file (npm run bench -- --keep-db): ROUNDS (default 5) of
READS (default 20000) random reads each.`;
const { positionals } = parseCli(USAGE, {}, { positionals: true });
const [path, roundsArg = '5', readsArg = '20000'] = positionals;
if (!path) {
  process.stderr.write(`a DB file is required\n\n${USAGE}\n`);
  process.exit(2);
}
const rounds = Number(roundsArg);
const reads = Number(readsArg);

const ids = (restricted: boolean) => {
  const db = new Database(path, { readonly: true });
  const rows = db
    .prepare(
      `SELECT id, seq FROM objects WHERE kind = 'tenders' AND is_public = 1 AND (doc -> '$.config.restricted' IS 'true') = ? ORDER BY random() LIMIT ?`,
    )
    .raw()
    .all(restricted ? 1 : 0, reads) as [string, number][];
  db.close();
  return rows;
};

async function main() {
  const store = openSqliteStore(path);
  const session = store.session();
  const samples = { unrestricted: ids(false), restricted: ids(true) };
  const confirmed = new Map<string, KeptVersion>();
  for (const rows of Object.values(samples)) {
    for (const [id, seq] of rows) {
      const kept = { seq };
      await session.getView('tenders', id, kept);
      confirmed.set(id, kept);
    }
  }
  const cases: Record<string, (id: string, seq: number) => Promise<unknown>> = {
    'get + JSON.stringify({data, config})': async (id) => {
      const stored = (await session.get('tenders', id))!;
      return Buffer.from(JSON.stringify({ data: stored.doc.data, config: stored.doc.config }));
    },
    getView: (id) => session.getView('tenders', id),
    'getView, kept version (object query)': (id, seq) => session.getView('tenders', id, { seq }),
    'getView, kept version confirmed': (id) => session.getView('tenders', id, confirmed.get(id)),
  };
  for (let round = 1; round <= rounds; round++) {
    for (const [kind, rows] of Object.entries(samples)) {
      for (const [name, read] of Object.entries(cases)) {
        const started = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        for (const [id, seq] of rows) await read(id, seq);
        const wall = Number(process.hrtime.bigint() - t0) / 1e3 / rows.length;
        const cpu = process.cpuUsage(started);
        console.log(
          `round ${round} ${kind.padEnd(12)} ${name.padEnd(40)} ${wall.toFixed(2).padStart(7)} µs wall ${((cpu.user + cpu.system) / rows.length).toFixed(2).padStart(7)} µs CPU`,
        );
      }
    }
  }
  await store.close();
}

void main();
