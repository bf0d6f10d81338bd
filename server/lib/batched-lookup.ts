/**
 * Lookups of one kind that arrive together go to the database as one statement: the keys asked
 * for during one turn of the event loop (the requests Node read in that turn) are loaded after
 * it, at once, each key once however many asked for it. Nothing is cached: every lookup starts
 * after its caller asked, so a change committed before a request arrived is seen by it (a
 * signed-out session is refused by the very next request, in every process).
 *
 * A batch holds at most `maxKeys` keys (a full one is sent at once). A failed load fails every
 * lookup of its batch, and only those.
 */
export function batchedLookup<K, V>(
  load: (keys: readonly K[]) => Promise<ReadonlyMap<K, V>>,
  maxKeys = 64,
): (key: K) => Promise<V | null> {
  type Waiter = { resolve: (value: V | null) => void; reject: (err: unknown) => void };
  let open: Map<K, Waiter[]> | null = null;

  const send = (batch: Map<K, Waiter[]>) => {
    // A load that throws before its promise is made fails the batch like one that rejects.
    Promise.resolve()
      .then(() => load([...batch.keys()]))
      .then(
        (found) => {
          for (const [key, waiters] of batch) {
            const value = found.get(key) ?? null;
            for (const w of waiters) w.resolve(value);
          }
        },
        (err: unknown) => {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
        },
      );
  };

  return (key) =>
    new Promise<V | null>((resolve, reject) => {
      if (open === null) {
        const batch = new Map<K, Waiter[]>();
        open = batch;
        // After this turn's I/O callbacks: every request read in it has asked by then.
        setImmediate(() => {
          if (open !== batch) return; // sent already, full
          open = null;
          send(batch);
        });
      }
      const waiters = open.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else open.set(key, [{ resolve, reject }]);
      if (open.size >= maxKeys) {
        const full = open;
        open = null;
        send(full);
      }
    });
}
