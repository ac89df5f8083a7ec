import t from 'tap';
import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import { storeContract } from './contract';

const url = [process.env.MONGODB_URL, process.env.STORE_URL].find((u) => u?.startsWith('mongodb://'));

/** The same server and options, another database. */
const withDatabase = (url: string, name: string) => url.replace(/^(mongodb:\/\/[^/?]*)(\/[^?]*)?/, `$1/${name}`);

if (!url) {
  t.plan(0, 'MONGODB_URL (or a mongodb:// STORE_URL) not set');
} else {
  const admin = new MongoClient(url);
  const databases: string[] = [];
  t.teardown(async () => {
    for (const name of databases) await admin.db(name).dropDatabase();
    await admin.close();
  });
  const names = new WeakMap<object, string>();
  storeContract(t, async (options = {}) => {
    const name = options.sharing ? names.get(options.sharing)! : `contract_${randomUUID().slice(0, 8)}`;
    if (!options.sharing) databases.push(name);
    const store = await openMongoStore(withDatabase(url, name), { feedFloors: { clock: options.clock, heartbeatMs: 20 } });
    names.set(store, name);
    return store;
  });
}
