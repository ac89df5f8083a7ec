const MARKERS: [string, string][] = [
  ['title', 'ТЕСТУВАННЯ'],
  ['title_en', 'TESTING'],
  ['title_ru', 'ТЕСТИРОВАНИЕ'],
];

/**
 * `set_mode_test_titles` (docs/tenders.md §Test mode titles): in test mode every title carries its marker once, and missing
 * `title_en`/`title_ru` are created as the bare marker. Applied on every save of tenders and contracts.
 */
export function withTestTitles<T extends object>(object: T): T {
  if ((object as { mode?: unknown }).mode !== 'test') return object;
  const out = { ...object } as Record<string, unknown>;
  for (const [key, marker] of MARKERS) {
    const title = out[key] as string | undefined;
    if (typeof title !== 'string' || !title.startsWith(`[${marker}]`)) out[key] = `[${marker}] ${title || ''}`;
  }
  return out as T;
}
