/** Every item a paged read gives, in its order: `read(after)` gives up to `page` items after the cursor `after`. */
export async function* paged<T, C>(
  read: (after: C | undefined) => Promise<T[]>,
  cursor: (item: T) => C,
  page: number,
): AsyncGenerator<T[]> {
  for (let after: C | undefined; ;) {
    const items = await read(after);
    if (items.length) yield items;
    if (items.length < page) return;
    after = cursor(items[items.length - 1]);
  }
}
