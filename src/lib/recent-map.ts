// A Map as a least-recently-used cache: its iteration order is insertion order, so re-inserting a key makes
// it the most recent and the first key is the least recent.

/** Sets `key` to `value` as the most recent entry, then drops the least recent ones past `max`. */
export function keepRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value!);
}
