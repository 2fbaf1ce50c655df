import DataLoader from 'dataloader';

/**
 * A per-request DataLoader over a batch lookup by key: every key of a batch is read in one call,
 * and a key the lookup does not answer gets `fallback`.
 */
export function loaderByKey<V>(load: (keys: readonly string[]) => Promise<Map<string, V>>, fallback: V): DataLoader<string, V> {
  return new DataLoader<string, V>(async (keys) => {
    const found = await load(keys);
    return keys.map((key) => found.get(key) ?? fallback);
  });
}
