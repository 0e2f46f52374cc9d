/**
 * A Map that keeps at most `max` entries, for per-isolate memories: setting a
 * key makes it the newest, and past `max` the oldest set goes first.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    if (this.size > this.max) super.delete(this.keys().next().value as K);
    return this;
  }
}
