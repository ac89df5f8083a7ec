/** Runs `task` on every item, at most `limit` at a time; resolves to how many succeeded (failures are the task's to report). */
export async function runLimited<T>(items: T[], limit: number, task: (item: T) => Promise<unknown>): Promise<number> {
  let next = 0;
  let succeeded = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++];
      await task(item).then(
        () => (succeeded += 1),
        () => undefined,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return succeeded;
}
