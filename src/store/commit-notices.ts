import type { Kind, Store, StoreSession } from './port';

/**
 * The store, telling `onCommit` which kinds each commit made through it changed, once the commit is acknowledged:
 * the node's live feed readers then read at once rather than at their next poll (docs/platform.md §Live feed).
 */
export function noticeCommits(store: Store, onCommit: (kinds: Kind[]) => void): Store {
  const noticed = (session: StoreSession): StoreSession =>
    new Proxy(session, {
      get(target, property) {
        if (property === 'commit') {
          const commit: StoreSession['commit'] = async (changes, numbering) => {
            const stored = await target.commit(changes, numbering);
            onCommit(changes.map((change) => change.kind));
            return stored;
          };
          return commit;
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return new Proxy(store, {
    get(target, property) {
      if (property === 'session') return (...args: Parameters<Store['session']>) => noticed(target.session(...args));
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
