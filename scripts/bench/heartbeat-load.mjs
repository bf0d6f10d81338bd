/**
 * The heartbeat load generator (plain JS: a worker thread does not inherit tsx), in its own thread so that making requests never competes
 * with the server under test for its event loop: `rate` heartbeats a second, round robin over
 * the hosts' credentials, each sent on time whether or not the previous one was answered.
 */
import { parentPort, workerData } from 'node:worker_threads';

/** @param {number} n */
function heartbeatBody(n) {
  return JSON.stringify({
    agentVersion: 'bench',
    sentAt: new Date().toISOString(),
    host: {
      hostname: `host-${n}`,
      cpu: { model: 'AMD EPYC 7543', cores: 64 },
      memory: { totalBytes: 256 * 1024 ** 3, availableBytes: 200 * 1024 ** 3 },
      disk: { path: '/var/lib/rentgpu-agent', totalBytes: 4e12, freeBytes: 3e12 },
      accelerator: 'kvm',
    },
    gpus: {
      gpus: [0, 1].map((index) => ({
        index,
        name: 'NVIDIA GeForce RTX 4090',
        uuid: `GPU-${n}-${index}`,
        memoryTotalMib: 24564,
        memoryUsedMib: 1200,
        utilizationPercent: 37,
        temperatureC: 61,
        pciBusId: `00000000:0${index + 1}:00.0`,
      })),
      error: null,
    },
    instances: [],
  });
}

/** @type {{ base: string; hosts: number; rate: number }} */
const job = workerData;
/** @type {number[]} */
const latencies = [];
let failures = 0;
let running = true;
const inFlight = new Set();
parentPort?.on('message', (message) => {
  if (message === 'stop') running = false;
});

const periodMs = 1000 / job.rate;
const started = performance.now();
for (let i = 0; running; i += 1) {
  const wait = started + i * periodMs - performance.now();
  if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
  const n = (i % job.hosts) + 1;
  const sent = performance.now();
  const p = fetch(`${job.base}/api/v1/agents/heartbeat`, {
    method: 'POST',
    headers: {
      authorization: `Bearer bench-host-${n}-credential`,
      'content-type': 'application/json',
    },
    body: heartbeatBody(n),
  })
    .then(async (res) => {
      await res.arrayBuffer();
      if (res.status === 200) latencies.push(performance.now() - sent);
      else failures += 1;
    })
    .catch(() => {
      failures += 1;
    })
    .finally(() => inFlight.delete(p));
  inFlight.add(p);
}
await Promise.all(inFlight);
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
/** @param {number} q */
const pct = (q) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
parentPort?.postMessage({
  answered: latencies.length,
  perSecond: latencies.length / seconds,
  failures,
  p50: pct(0.5),
  p99: pct(0.99),
});
