/** What `memo` holds for `key`, else what `make` gives, kept in `memo` for the next ask. */
export function remembered<K, V>(
  memo: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: (key: K) => V,
): V {
  const known = memo.get(key);
  if (known !== undefined) return known;
  const made = make(key);
  memo.set(key, made);
  return made;
}
