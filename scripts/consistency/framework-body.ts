const DAY = 86_400_000;

/** A dynamicPurchasingSystem framework that may be activated at once (qualification period of 400 days). */
export function aFramework(title: string, now = new Date()) {
  return {
    frameworkType: 'dynamicPurchasingSystem',
    title,
    procuringEntity: {
      name: 'Consistency checker',
      kind: 'general',
      identifier: { scheme: 'UA-EDR', id: '00037256', legalName: 'Consistency checker' },
      address: { countryName: 'Україна', postalCode: '01220', region: 'м. Київ', locality: 'м. Київ', streetAddress: 'вул. Банкова, 11' },
      contactPoint: { name: 'Checker', telephone: '+0440000000', email: 'checker@example.com' },
    },
    classification: { scheme: 'ДК021', description: 'Mustard seeds', id: '03111600-8' },
    qualificationPeriod: { endDate: new Date(now.getTime() + 400 * DAY).toISOString() },
  };
}

/**
 * The version a client wrote into `description`, the read it had made before writing it, and the versions its writes
 * have appended so far: the list an Elle list-append read returns (docs/cluster.md §Independent checker).
 */
export interface Stamp {
  version: number;
  after?: { id: string; version: number };
  list?: number[];
}

export const formatStamp = (s: Stamp) =>
  `v=${s.version}${s.after ? `;after=${s.after.id}@${s.after.version}` : ''}${s.list ? `;l=${s.list.join('.')}` : ''}`;

export function parseStamp(description: unknown): Stamp {
  const m = typeof description === 'string' ? /^v=(\d+)(?:;after=([0-9a-f]+)@(\d+))?(?:;l=([\d.]*))?$/.exec(description) : null;
  if (!m) return { version: 0 };
  return {
    version: Number(m[1]),
    ...(m[2] ? { after: { id: m[2], version: Number(m[3]) } } : {}),
    ...(m[4] !== undefined ? { list: m[4] ? m[4].split('.').map(Number) : [] } : {}),
  };
}
