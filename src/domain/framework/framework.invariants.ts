import type { SaveRule } from '../core/server-managed';
import type { Framework } from './framework.types';

/**
 * A defense procuring entity always means restricted derivatives (docs/frameworks.md §Defense frameworks): set on
 * every save, so a draft patched to `kind: defense`, its activation and every later save keep it true.
 */
export const defenseRestrictsDerivatives: SaveRule = (after) => {
  const { procuringEntity } = after.data as Framework;
  if (procuringEntity?.kind === 'defense' && after.config?.restrictedDerivatives !== true) {
    after.config = { ...after.config, restrictedDerivatives: true };
  }
};
