import t from 'tap';
import Database from 'better-sqlite3';
import { groupCommits } from '../../../src/store/sqlite/group-commit';

const open = () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE rows (v INTEGER PRIMARY KEY)');
  let transactions = 0;
  const run = <T>(transaction: () => T): T => {
    transactions++;
    return transaction();
  };
  const values = () => db.prepare('SELECT v FROM rows ORDER BY v').pluck().all() as number[];
  return { db, run, values, transactions: () => transactions };
};

t.test('commits asked for in one turn share one transaction, and each settles on its own', async (t) => {
  const { db, run, values, transactions } = open();
  const { commit } = groupCommits(db, (v: number) => db.prepare('INSERT INTO rows (v) VALUES (?)').run(v).changes, run);
  const results = await Promise.allSettled([1, 2, 1, 3].map(commit));
  t.same(
    results.map((r) => r.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  t.match((results[2] as PromiseRejectedResult).reason, { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
  t.same(values(), [1, 2, 3]);
  t.equal(transactions(), 1);
  await commit(4);
  t.equal(transactions(), 2, 'a later turn opens a transaction of its own');
});

t.test('a commit that fails after writing leaves nothing of itself', async (t) => {
  const { db, run, values } = open();
  const { commit } = groupCommits(db, (vs: number[]) => vs.forEach((v) => db.prepare('INSERT INTO rows (v) VALUES (?)').run(v)), run);
  const results = await Promise.allSettled([commit([1, 2]), commit([3, 1]), commit([4])]);
  t.same(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  t.same(values(), [1, 2, 4], 'the failed commit wrote 3 before failing, and 3 is gone');
});

t.test('when SQLite ends the whole transaction, every commit of the batch is rejected and none is kept', async (t) => {
  const { db, run, values } = open();
  const { commit } = groupCommits(
    db,
    (v: number) => {
      db.prepare('INSERT INTO rows (v) VALUES (?)').run(v);
      if (v === 2) {
        db.exec('ROLLBACK'); // what SQLite itself does on an I/O error or a full disk
        throw new Error('disk I/O error');
      }
    },
    run,
  );
  const results = await Promise.allSettled([1, 2, 3].map(commit));
  t.same(
    results.map((r) => r.status),
    ['rejected', 'rejected', 'rejected'],
  );
  t.same(values(), []);
  t.notOk(db.inTransaction);
  await commit(5);
  t.same(values(), [5], 'the next batch commits');
});

t.test('flushIf applies the waiting commits at once when one of them is waited for, and only then', async (t) => {
  const { db, run, values, transactions } = open();
  const commits = groupCommits(db, (v: number) => db.prepare('INSERT INTO rows (v) VALUES (?)').run(v).changes, run);
  const first = commits.commit(1);
  const second = commits.commit(2);
  commits.flushIf((v) => v === 7);
  t.same(values(), [], 'nothing waited for: the batch still waits for its turn');
  commits.flushIf((v) => v === 2);
  t.same(values(), [1, 2], 'applied before flushIf returns');
  t.equal(transactions(), 1);
  t.same(await Promise.all([first, second]), [1, 1]);
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(transactions(), 1, 'the turn that was scheduled finds nothing left to commit');
});

t.test('a failing transaction wrapper rejects the whole batch', async (t) => {
  const db = new Database(':memory:');
  const { commit } = groupCommits(
    db,
    (v: number) => v,
    () => {
      throw new Error('the store is busy');
    },
  );
  const results = await Promise.allSettled([1, 2].map(commit));
  t.same(
    results.map((r) => (r.status === 'rejected' ? r.reason.message : r.value)),
    ['the store is busy', 'the store is busy'],
  );
});
