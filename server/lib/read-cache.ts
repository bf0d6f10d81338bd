/**
 * A short-lived cache of public read answers (the listing pages, the marketplace stats).
 * invalidate() runs in every server process when a write that changes them publishes the
 * `read-cache` signal (deps.ts, docs/decisions/017); a process that missed the signal shows
 * the write within the TTL. Bounded, so odd query strings cannot grow it without end.
 * `keep` turns an answer into the form it is kept in (text into bytes, encoded once for every
 * hit), only for an answer that is kept: with the cache off, the text is sent as it is.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number; generation: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 500,
    private readonly now: () => number = Date.now,
    private readonly keep: (value: V) => V = (value) => value,
  ) {}

  async getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation && hit.expires > this.now()) return hit.value;
    const generation = this.generation;
    const loaded = await load();
    // A write that landed while we loaded makes this answer stale: do not keep it.
    if (generation !== this.generation || this.ttlMs <= 0) return loaded;
    const value = this.keep(loaded);
    if (this.entries.size >= this.maxEntries)
      this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs, generation });
    return value;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
