import type { Store, StoreSession } from '../../src/store/port';

/** A store whose session calls first wait for `ready()`: a disk or network that has stalled until released. */
export function stalledStore(store: Store, ready: () => Promise<void>): Store {
  const delayed = (session: StoreSession): StoreSession =>
    new Proxy(session, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || property === 'token') return value;
        return async (...args: unknown[]) => {
          await ready();
          return value.apply(target, args);
        };
      },
    });
  return {
    engine: store.engine,
    transfer: store.transfer,
    session: (token, author) => delayed(store.session(token, author)),
    due: (nowMs, limit) => store.due(nowMs, limit),
    ping: () => store.ping(),
    close: () => store.close(),
  };
}

/** A gate for stalledStore: open until stall(), then closed until release(); `held()` resolves once a call waits. */
export function storeGate() {
  let closed: Promise<void> | null = null;
  let open = () => {};
  let holding = () => {};
  let held = new Promise<void>((resolve) => (holding = resolve));
  return {
    ready() {
      if (!closed) return Promise.resolve();
      holding();
      return closed;
    },
    held: () => held,
    stall() {
      closed = new Promise((resolve) => (open = resolve));
      held = new Promise((resolve) => (holding = resolve));
    },
    release() {
      closed = null;
      open();
    },
  };
}
