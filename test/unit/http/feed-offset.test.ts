import t from 'tap';
import { offsetEcho, parseFeedOffset } from '../../../src/http/feed-offset';

t.test('a position in float UNIX seconds is taken as it is', async (t) => {
  t.equal(parseFeedOffset('1764064800.123456', false), 1764064800.123456);
  t.equal(parseFeedOffset('1764064800', false), 1764064800);
});

t.test('the counter of an earlier version is a position below every time, so a crawler re-reads rather than misses', async (t) => {
  t.equal(parseFeedOffset('71', false), 71);
});

t.test('an ISO 8601 date-time means changes after that time; a "+" read as a space is put back', async (t) => {
  t.equal(parseFeedOffset('2025-11-25T12:00:00+02:00', false), Date.parse('2025-11-25T10:00:00Z') / 1000);
  t.equal(parseFeedOffset('2025-11-25T12:00:00.250 02:00', false), Date.parse('2025-11-25T10:00:00.250Z') / 1000);
  t.equal(parseFeedOffset('2025-11-25T10:00:00Z', false), Date.parse('2025-11-25T10:00:00Z') / 1000);
});

t.test("the reference's <seconds>.<n>.<hash> form means from that time on, its own items included again", async (t) => {
  const position = parseFeedOffset('1798754400.0.1.0c83243cbf195ce42c53e8755e94dcd3', false)!;
  t.ok(position < 1798754400 && position >= 1798754400 - 0.000001);
  t.ok(parseFeedOffset('1767969651.246.2.0c83243cbf195ce42c53e8755e94dcd3', false)! < 1767969651.246);
});

t.test("descending, the reference's form means up to that time, its own items included again", async (t) => {
  const position = parseFeedOffset('1798754400.0.1.0c83243cbf195ce42c53e8755e94dcd3', true)!;
  t.ok(position > 1798754400 && position <= 1798754400 + 0.000001);
  t.equal(parseFeedOffset('1764064800.123456', true), 1764064800.123456, 'a position is the same either way');
});

t.test('anything else is no offset', async (t) => {
  for (const raw of ['abc', '-1', '1e5', '12abc', '1.2.3', '2025-13-01T00:00:00Z', '1798754400.0.1.xyz', 'Infinity']) {
    t.equal(parseFeedOffset(raw, false), null, raw);
  }
});

t.test('an offset echoed into an empty page: a number when it is a position, else as it came', async (t) => {
  t.equal(offsetEcho('1764064800.5'), 1764064800.5);
  t.equal(offsetEcho('2025-11-25T12:00:00+02:00'), '2025-11-25T12:00:00+02:00');
});
