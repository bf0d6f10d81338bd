import { setTimeout as sleep } from 'node:timers/promises';

/** What `probe` gives once it gives something, asked every `everyMs`; past `ms` an error naming `what`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  ms = 240_000,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
