import t from 'tap';
import { redisOutageFault, slowStoreFault, sqliteLockFault } from '../../scripts/reliability/faults';

for (const fault of [slowStoreFault, sqliteLockFault, redisOutageFault]) {
  t.test(`${fault.name}: the registry survives`, async (t) => {
    const outcome = await fault();
    t.ok(outcome.survived, `${outcome.fault}: ${outcome.detail}`);
  });
}
