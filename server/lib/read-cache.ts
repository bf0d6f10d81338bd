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
  /** Loads under way, by key: the generation they began in and their answer. */
  private readonly loading = new Map<string, { promise: Promise<V>; generation: number }>();
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
    // With the cache off every request reads the database, none shares another's answer.
    if (this.ttlMs <= 0) return load();
    // Requests that miss while the same answer is being loaded wait for that load rather than
    // each starting their own: when a slow answer expires (the marketplace's stats take
    // 55–77 ms at 100,000 listings) every request in that time would otherwise load it again.
    // Only a load begun since the last invalidation is shared, so no one is answered from
    // before a write they may have seen.
    const flying = this.loading.get(key);
    if (flying && flying.generation === this.generation) return flying.promise;
    const generation = this.generation;
    // Called at once, as a load that is not shared would be (a throw becomes the rejection).
    const promise: Promise<V> = (async () => load())()
      .then((loaded) => {
        // A write that landed while we loaded makes this answer stale: do not keep it.
        if (generation !== this.generation) return loaded;
        const value = this.keep(loaded);
        if (this.entries.size >= this.maxEntries)
          this.entries.delete(this.entries.keys().next().value as string);
        this.entries.set(key, { value, expires: this.now() + this.ttlMs, generation });
        return value;
      })
      .finally(() => {
        if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
      });
    this.loading.set(key, { promise, generation });
    return promise;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }
}
