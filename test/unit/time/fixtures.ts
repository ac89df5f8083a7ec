import { parseIsoDate } from '../../../src/time/kyiv';

/** A fixture instant from its ISO text; a typo fails loudly. */
export const at = (text: string): Date => {
  const date = parseIsoDate(text);
  if (!date) throw new Error(`bad fixture date ${text}`);
  return date;
};
export const working = (days: number) => ({ days, working: true });
export const calendar = (days: number) => ({ days, working: false });
