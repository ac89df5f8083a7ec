import type { RequestPlan } from './drive';

const API = '/api/2.5';
const HEADERS = { authorization: 'Bearer broker', 'content-type': 'application/json' };

export interface Owned {
  id: string;
  token: string;
}

/** `POST /tenders` of `body`, keeping up to 5,000 created tenders and their owner tokens in `owned`. */
export const createPlan = (body: unknown, owned: Owned[], refused?: (status: number, body: string) => void): RequestPlan => ({
  method: 'POST',
  headers: HEADERS,
  body: JSON.stringify(body),
  path: () => `${API}/tenders`,
  onResponse(status, text) {
    if (status === 201 && owned.length < 5000) {
      const created = JSON.parse(text);
      owned.push({ id: created.data.id, token: created.access.token });
    } else if (status !== 201) refused?.(status, text);
  },
});

/** Owner `PATCH /tenders/{id}` of tenders in `owned`; each connection edits its own, so no two race for one revision. */
export function patchPlan(owned: Owned[], connections: number): RequestPlan {
  let slots = 0;
  return {
    method: 'PATCH',
    headers: HEADERS,
    body: JSON.stringify({ data: { description: 'Оновлений опис закупівлі для бенчмарку' } }),
    path(ctx) {
      ctx.slot ??= slots++;
      ctx.n = (ctx.n ?? 0) + 1;
      const per = Math.max(1, Math.floor(owned.length / connections));
      const t = owned[(ctx.slot % owned.length) + connections * (ctx.n % per)] ?? owned[ctx.slot % owned.length];
      return `${API}/tenders/${t.id}?acc_token=${t.token}`;
    },
  };
}
