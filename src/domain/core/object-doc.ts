import type { OwnerSecrets } from '../../security/tokens';

/**
 * A document of a kind not typed yet: the JSON object as stored. Typed kinds use `ObjectDoc` with their own types
 * (docs/architecture.md §Domain types); each use of this one is a place still to type.
 */
export type Doc = Record<string, any>;

/**
 * How every object is kept: `data` is the full (owner's) view, `config` its behaviour switches, `secrets`
 * the hashes of its owner and transfer tokens, never shown. A typed kind names its data, its config and the
 * members it keeps beside them (`FrameworkDoc`); the defaults are the untyped document, for kinds not typed yet,
 * whose `data` (`any`) their code and fixtures can still hand to a typed kind's functions.
 */
export type ObjectDoc<Data extends object = any, Config extends object = Doc, Hidden extends object = Doc> = Hidden & {
  data: Data;
  config?: Config;
  secrets?: OwnerSecrets;
};
