import { isDeepStrictEqual } from 'node:util';
import { apiError } from '../../http/errors';
import { pythonRepr } from '../core/python-repr';
import type { Contract, ContractItem, ContractValue } from './contract.types';

/**
 * The owner's PATCH of a contract's items, as openprocurement.api 1.0.274 checks it: the body's unit currencies, then
 * what may change of each item, then the unit prices against the value (docs/contracts.md §Contract items).
 */

/** The reference's `Value` names UAH where a value gives no currency. */
const currencyOf = (value: { currency?: string } | undefined) => value?.currency ?? 'UAH';

/**
 * `validate_item_unit_values` (`PatchContract.validate_items`), with the body: with the tender's
 * `valueCurrencyEquality`, each given unit price is in the currency of the value the PATCH gives, else the contract's.
 */
export function checkItemUnitCurrencies(items: Partial<ContractItem>[], patchValue: ContractValue | undefined, before: Contract): void {
  const base = patchValue ?? before.value;
  if (!base) return;
  const expected = currencyOf(base);
  for (const item of items) {
    const unitValue = item.unit?.value;
    if (unitValue && currencyOf(unitValue) !== expected) {
      throw apiError(422, [`Value mismatch. Expected: currency ${expected}`], { name: 'items' });
    }
  }
}

/** What the item rules read of the contract's tender: its `config.valueCurrencyEquality`, and whether it has funders. */
export interface TenderCurrencies {
  valueCurrencyEquality?: boolean;
  funded?: boolean;
}

/**
 * `synchronize_items_unit_value`, after the checks of every PATCH of a contract with a value: each unit price without
 * VAT (tenders since `ITEMS_UNIT_VALUE_AMOUNT_VALIDATION_FROM`, 2023-06-25) and in the value's currency, but in a
 * funded tender of several currencies.
 */
export function withItemsPricedAsValue(contract: Contract, tender: TenderCurrencies): Contract {
  const { value, items } = contract;
  if (!value || !items?.some((i) => i.unit?.value)) return contract;
  const keepCurrency = tender.valueCurrencyEquality === false && tender.funded;
  const repriced = items.map((item) => {
    if (!item.unit?.value) return item;
    const currency = keepCurrency ? undefined : value.currency;
    const priced = { ...item.unit.value, ...(currency ? { currency } : {}), valueAddedTaxIncluded: false };
    return { ...item, unit: { ...item.unit, value: priced } };
  });
  return { ...contract, items: repriced };
}

/** What a pending contract's items may change (`validate_patch_pending_contract_items`). */
const PENDING_ITEM_CHANGES = ['unit', 'quantity'];

/** The members of each object in `before` that `after` leaves out, as a Python set (`validate_fileds_deletion`). */
function checkNoneDeleted(before: object, after: object, container: string): void {
  const gone = Object.keys(before).filter((k) => !(k in after));
  if (gone.length) throw apiError(403, `Forbidden to delete fields in ${container}: {${gone.map(pythonRepr).join(', ')}}`);
}

/** A value as the reference's messages print it (an f-string: text as is, anything else as Python's repr). */
const shown = (value: unknown) => (typeof value === 'string' ? value : pythonRepr(value));

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A contract that stays pending: the same items, in a list of the same length, only `unit` and `quantity` changed. */
function checkPendingItems(before: ContractItem[], after: ContractItem[]): void {
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    if (!before[i] || !after[i]) throw apiError(403, "Can't change items list length");
    const was = before[i] as Record<string, unknown>;
    const now = after[i] as Record<string, unknown>;
    checkNoneDeleted(was, now, 'item');
    for (const key of new Set([...Object.keys(was), ...Object.keys(now)])) {
      const [from, to] = [was[key], now[key]];
      if (!PENDING_ITEM_CHANGES.includes(key) && !isDeepStrictEqual(from, to)) {
        const allowed = `(${PENDING_ITEM_CHANGES.map(pythonRepr).join(', ')})`;
        throw apiError(403, `Updated could be only ${allowed} in item, ${key} change forbidden: ${shown(from)} -> ${shown(to)}`);
      }
      if (isObject(from) && isObject(to)) checkNoneDeleted(from, to, key);
    }
    const [unitBefore, unitAfter] = [before[i].unit, after[i].unit];
    if (unitBefore?.value && currencyOf(unitBefore.value) !== currencyOf(unitAfter?.value)) {
      throw apiError(403, 'Forbidden to change currency in contract items unit');
    }
  }
}

/** The members that say what an item is (`extract_key_hash`): additional classifications in the order of their ids. */
function mainInformation(item: ContractItem): string {
  const record = item as Record<string, unknown>;
  const additional = [...(item.additionalClassifications ?? [])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return JSON.stringify([item.classification ?? {}, record.relatedLot ?? '', record.relatedBuyer ?? '', additional]);
}

const MAIN_FIELDS =
  'all main fields should be the same as in previous items: classification, relatedLot, relatedBuyer, additionalClassifications';

/** An active contract: items may come and go, but none brings or takes away a kind of item (`validate_patch_active_contract_items`). */
function checkActiveItems(before: ContractItem[], after: ContractItem[]): void {
  const was = new Set(before.map(mainInformation));
  const now = new Set(after.map(mainInformation));
  if ([...now].some((k) => !was.has(k))) throw apiError(403, `Forbidden to add new items main information in contract, ${MAIN_FIELDS}`);
  if ([...was].some((k) => !now.has(k))) throw apiError(403, `Forbidden to delete items main information in contract, ${MAIN_FIELDS}`);
}

/** `validate_patch_contract_items`: by the status the contract is left in. */
export const itemsKeepTheirTerms = (contract: Contract, before: Contract): void => {
  if (isDeepStrictEqual(contract.items, before.items)) return;
  if (contract.status === 'active') checkActiveItems(before.items ?? [], contract.items ?? []);
  else checkPendingItems(before.items ?? [], contract.items ?? []);
};

/** An exact decimal, `digits` × 10^-`scale`, of a JSON number: what the reference's `to_decimal` makes of a float. */
interface Decimal {
  digits: bigint;
  scale: number;
}

function decimalOf(n: number): Decimal {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n)) ?? [];
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(`${sign}${whole}${fraction}`);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

const times = (a: Decimal, b: Decimal): Decimal => ({ digits: a.digits * b.digits, scale: a.scale + b.scale });
const plus = (a: Decimal, b: Decimal): Decimal => {
  const scale = Math.max(a.scale, b.scale);
  return { digits: a.digits * 10n ** BigInt(scale - a.scale) + b.digits * 10n ** BigInt(scale - b.scale), scale };
};
/** Python's `int()` of a decimal (toward zero), over `divisor`/`multiplier` when given. */
const whole = (d: Decimal, multiplier = 1n, divisor = 1n) => (d.digits * multiplier) / (10n ** BigInt(d.scale) * divisor);

/**
 * `validate_update_contracting_items_unit_value_amount` and `validate_items_unit_amount` (1.0.274's rule with VAT,
 * `ITEMS_UNIT_VALUE_AMOUNT_VAT_AWARE_VALIDATION_FROM`): an active contract's unit prices times quantities add up to
 * its value (coins left out); skipped for tenders of several currencies.
 */
export function checkItemsUnitAmount(contract: Contract, multiCurrency: boolean): void {
  if (contract.status === 'pending' || contract.status === 'cancelled' || !contract.items?.length) return;
  const amounts: Decimal[] = [];
  for (const item of contract.items) {
    const unitValue = item.unit?.value;
    if (!unitValue || item.quantity === undefined) continue;
    if (item.quantity === 0 && unitValue.amount !== 0) {
      throw apiError(422, 'Item.unit.value.amount should be updated to 0 if item.quantity equal to 0');
    }
    amounts.push(times(decimalOf(item.quantity), decimalOf(unitValue.amount)));
  }
  const value = contract.value;
  if (multiCurrency || !amounts.length || !value || value.amount === undefined) return;
  const sum = amounts.reduce(plus);
  const amount = whole(decimalOf(value.amount));
  if (value.valueAddedTaxIncluded ?? true) {
    // The net amount is amountNet, or the amount less 20% VAT (`AMOUNT_NET_COEF`).
    const net = value.amountNet !== undefined ? whole(decimalOf(value.amountNet)) : whole(decimalOf(value.amount), 10n, 12n);
    const units = whole(sum);
    if (sum.digits <= 0n || units < net || units > amount) {
      throw apiError(422, 'Total amount of unit values must be no more than contract.value.amount and no less than net contract amount', {
        name: 'items',
      });
    }
  } else if (whole(sum) !== amount) {
    throw apiError(422, 'Total amount of unit values should be equal contract.value.amount if VAT is not included in contract', {
      name: 'items',
    });
  }
}
