/**
 * The rent-then-stop load generator (plain JS: a worker thread does not inherit tsx), in its
 * own thread so that the bench's requests never compete with the server under test for its
 * event loop. Each renter rents, asks the main thread to report the instance ready (what the
 * agent or the demo host does, through the server's hosts service), then stops it.
 */
import { parentPort, workerData } from 'node:worker_threads';

/**
 * `bases`: the server processes' addresses; renter n calls bases[n % bases.length] (one
 * process, or several behind what would be a load balancer).
 * `record`: also answer, per pair, the instance's id and when (Date.now()) the rent's and the
 * stop's answers came (scripts/bench/webhooks.ts: change-to-delivery latency); `pauseMs`: each
 * renter waits that long after each pair (a paced load instead of as fast as answered).
 * @type {{ bases: string[]; cookies: string[]; listings: { id: number; providerId: number; hourlyRate: string }[]; seconds: number; record?: boolean; pauseMs?: number }}
 */
const job = workerData;
/** @type {Map<number, () => void>} */
const waiting = new Map();
parentPort?.on('message', (/** @type {{ reported: number }} */ message) => {
  waiting.get(message.reported)?.();
  waiting.delete(message.reported);
});

/** @param {number} id */
function reportReady(id) {
  return new Promise((resolve) => {
    waiting.set(id, () => resolve(undefined));
    parentPort?.postMessage({ ready: id });
  });
}

let pairs = 0;
let failures = 0;
/** @type {[number, number, number][]} */
const answered = [];
/** @type {string | null} */
let firstFailure = null;
const until = Date.now() + job.seconds * 1000;
await Promise.all(
  job.cookies.map(async (cookie, worker) => {
    const base = job.bases[worker % job.bases.length];
    const headers = { cookie, 'content-type': 'application/json' };
    for (let i = 0; Date.now() < until; i += 1) {
      const listing = job.listings[(worker * 7 + i) % job.listings.length];
      if (!listing) break;
      const rent = await fetch(`${base}/api/rentals`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          gpuListingId: listing.id,
          providerId: listing.providerId,
          durationHours: 2,
          hourlyRate: listing.hourlyRate,
          totalCost: (Number(listing.hourlyRate) * 2).toFixed(2),
        }),
      });
      if (rent.status !== 201) {
        failures += 1;
        firstFailure ??= `${rent.status} ${await rent.text()}`;
        continue;
      }
      const { id } = /** @type {{ id: number }} */ (await rent.json());
      const rentAnsweredAt = Date.now();
      await reportReady(id);
      const stop = await fetch(`${base}/api/rentals/${id}/stop`, { method: 'PATCH', headers });
      if (stop.status === 200) {
        pairs += 1;
        await stop.arrayBuffer();
        if (job.record) answered.push([id, rentAnsweredAt, Date.now()]);
        if (job.pauseMs) await new Promise((resolve) => setTimeout(resolve, job.pauseMs));
      } else {
        failures += 1;
        firstFailure ??= `${stop.status} ${await stop.text()}`;
      }
    }
  }),
);
parentPort?.postMessage({
  done: { pairs, failures, firstFailure, ...(job.record ? { answered } : {}) },
});
