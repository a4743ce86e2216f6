/**
 * A function whose answers are kept: the walkers ask the same questions of the same schemas, and
 * generation converts the same dates, hundreds of thousands of times. Bounded, so that a caller
 * feeding it ever-new keys cannot grow it without end (schemas and dates never come near it).
 */
export function remembered<K, V>(read: (key: K) => V, limit = 50_000): (key: K) => V {
  const known = new Map<K, V>();
  return (key) => {
    if (known.has(key)) return known.get(key) as V;
    if (known.size >= limit) known.clear();
    const value = read(key);
    known.set(key, value);
    return value;
  };
}
