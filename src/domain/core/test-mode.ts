const MARKERS: [string, string][] = [
  ['title', 'ТЕСТУВАННЯ'],
  ['title_en', 'TESTING'],
  ['title_ru', 'ТЕСТИРОВАНИЕ'],
];

/**
 * `set_mode_test_titles` (docs/tenders.md §Test mode titles): in test mode every title carries its marker once, and missing
 * `title_en`/`title_ru` are created as the bare marker. Applied on every save of tenders and contracts.
 */
export function withTestTitles<T extends { mode?: string }>(object: T): T {
  if (object.mode !== 'test') return object;
  const out: Record<string, unknown> = { ...object };
  for (const [key, marker] of MARKERS) {
    const title = out[key];
    // Titles are texts (joi checked them); a missing one becomes the bare marker.
    if (typeof title !== 'string') out[key] = `[${marker}] `;
    else if (!title.startsWith(`[${marker}]`)) out[key] = `[${marker}] ${title}`;
  }
  return out as T;
}
