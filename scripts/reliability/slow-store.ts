import type { Store, StoreSession } from '../../src/store/port';

/** A store whose every session call first waits `delayMs`: a disk or network that has gone slow. */
export function slowStore(store: Store, delayMs: () => number): Store {
  const wait = () => new Promise((resolve) => setTimeout(resolve, delayMs()));
  const delayed = (session: StoreSession): StoreSession =>
    new Proxy(session, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || property === 'token') return value;
        return async (...args: unknown[]) => {
          await wait();
          return value.apply(target, args);
        };
      },
    });
  return {
    engine: store.engine,
    session: (token) => delayed(store.session(token)),
    due: (nowMs, limit) => store.due(nowMs, limit),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}
