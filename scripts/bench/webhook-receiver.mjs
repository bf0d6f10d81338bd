/**
 * The webhook bench's receiver (scripts/bench/webhooks.ts): node:http on 127.0.0.1 in a worker
 * thread of its own (plain JS: a worker thread does not inherit tsx), so that the time it notes
 * for each delivery is when the delivery arrived, not when the server's busy event loop let it
 * run. Answers 200 to every POST and verifies each with the `standardwebhooks` package, by the
 * secret of the endpoint its path names (`/h/<endpoint id>`, secrets sent in by message).
 *
 * Messages in: `{ secrets: { [endpointId]: secret } }` (adds), `'take'` (answers what arrived
 * since the last take). Out: `{ port }` once listening, then `{ took: Arrival[] }` per take.
 */
import http from 'node:http';
import { parentPort } from 'node:worker_threads';
import { Webhook } from 'standardwebhooks';

/** @type {Map<string, Webhook>} */
const verifiers = new Map();
/**
 * `[arrived (Date.now()), the event's time (its body's timestamp, ms), type, instanceId or
 * null, webhook-id, verified]`.
 * @type {[number, number, string, number | null, string, boolean][]}
 */
let arrivals = [];

const server = http.createServer((req, res) => {
  const chunks = /** @type {Buffer[]} */ ([]);
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const arrived = Date.now();
    const body = Buffer.concat(chunks).toString('utf8');
    const endpointId = (req.url ?? '').split('/')[2] ?? '';
    let verified = false;
    try {
      verifiers.get(endpointId)?.verify(body, /** @type {Record<string, string>} */ (req.headers));
      verified = verifiers.has(endpointId);
    } catch {}
    /** @type {{ type: string; timestamp: string; data: { instanceId?: number } }} */
    const parsed = JSON.parse(body);
    arrivals.push([
      arrived,
      Date.parse(parsed.timestamp),
      parsed.type,
      parsed.data.instanceId ?? null,
      String(req.headers['webhook-id'] ?? ''),
      verified,
    ]);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
});
server.keepAliveTimeout = 30_000;

parentPort?.on('message', (/** @type {unknown} */ message) => {
  if (message === 'take') {
    parentPort?.postMessage({ took: arrivals });
    arrivals = [];
  } else if (message && typeof message === 'object' && 'secrets' in message) {
    const secrets = /** @type {Record<string, string>} */ (message.secrets);
    for (const [id, secret] of Object.entries(secrets)) verifiers.set(id, new Webhook(secret));
    parentPort?.postMessage({ added: Object.keys(secrets).length });
  }
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  parentPort?.postMessage({ port: typeof address === 'object' && address ? address.port : 0 });
});
