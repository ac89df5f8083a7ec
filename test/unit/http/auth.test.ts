import t from 'tap';
import { keyFromHeader, parseAuthFile, seesRestricted } from '../../../src/http/auth';

t.test('the auth file gives name, group and levels by key; missing levels default to 12345', async (t) => {
  const accounts = parseAuthFile(
    '[brokers]\nbroker = broker\nbrokerr = brokerr,12345r\n; comment\n[chronograph]\nchronograph = chronokey\n',
  );
  t.same(accounts.get('broker'), { name: 'broker', group: 'brokers', levels: '12345' });
  t.same(accounts.get('brokerr'), { name: 'brokerr', group: 'brokers', levels: '12345r' });
  t.same(accounts.get('chronokey'), { name: 'chronograph', group: 'chronograph', levels: '12345' });
  t.equal(accounts.size, 3);
});

t.test('Bearer and Basic (key as user name) both give the key; other schemes give none', async (t) => {
  t.equal(keyFromHeader('Bearer broker'), 'broker');
  t.equal(keyFromHeader('bearer broker'), 'broker');
  t.equal(keyFromHeader(`Basic ${Buffer.from('broker:').toString('base64')}`), 'broker');
  t.equal(keyFromHeader(`Basic ${Buffer.from('broker:ignored-password').toString('base64')}`), 'broker');
  t.equal(keyFromHeader('Digest abc'), null);
  t.equal(keyFromHeader('Bearer'), null);
  t.equal(keyFromHeader(undefined), null);
});

t.test('restricted data is seen whole by r-level brokers and system groups only', async (t) => {
  t.ok(seesRestricted({ account: { name: 'b', group: 'brokers', levels: '12345r' } }));
  t.ok(seesRestricted({ account: { name: 'c', group: 'chronograph', levels: '12345' } }));
  t.notOk(seesRestricted({ account: { name: 'b', group: 'brokers', levels: '12345' } }));
  t.notOk(seesRestricted({ account: null }));
});
