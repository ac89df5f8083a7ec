import t from 'tap';
import { ManualClock, systemClock } from '../../../src/time/clock';

const start = new Date('2027-01-01T00:00:00+02:00');

t.test('systemClock.now reads the real time', async (t) => {
  const before = Date.now();
  const now = systemClock.now().getTime();
  t.ok(now >= before && now <= Date.now());
});

t.test('ManualClock stands still at its start', async (t) => {
  const clock = new ManualClock(start);
  t.equal(clock.now().getTime(), start.getTime());
  t.equal(clock.now().getTime(), start.getTime());
});

t.test('ManualClock.advance moves now forward by the given milliseconds', async (t) => {
  const clock = new ManualClock(start);
  clock.advance(86_400_000);
  t.equal(clock.now().toISOString(), '2027-01-01T22:00:00.000Z');
});

t.test('ManualClock.set jumps to the given instant', async (t) => {
  const clock = new ManualClock(start);
  clock.set(new Date('2030-05-05T12:00:00Z'));
  t.equal(clock.now().toISOString(), '2030-05-05T12:00:00.000Z');
});

t.test('mutating a returned date leaves the clock unchanged', async (t) => {
  const clock = new ManualClock(start);
  clock.now().setTime(0);
  t.equal(clock.now().getTime(), start.getTime());
});
