import t from 'tap';
import { openMongoStore } from '../../src/store/mongo/mongo-store';
import { StoreUnavailable } from '../../src/store/port';

t.test('opening a store on an unreachable server fails with StoreUnavailable', async (t) => {
  // Port 9 (discard) on loopback: nothing listens, so server selection gives up after the timeout.
  await t.rejects(openMongoStore('mongodb://127.0.0.1:9/?replicaSet=secantus', { serverSelectionTimeoutMS: 200 }), StoreUnavailable);
});
