import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { OutboundRefused, outboundAddress, type TargetCheck } from '../../lib/outbound-address';

/** One attempt's limits (docs/decisions/027): the whole attempt, and how much answer is read. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** What the delivery log keeps of an answer. */
export const EXCERPT_BYTES = 1024;

export interface AttemptOutcome {
  /** A 2xx answer. Anything else — 3xx included: redirects are never followed — failed. */
  ok: boolean;
  status: number | null;
  latencyMs: number;
  /** Why no usable answer came: refused address, timeout, connection error. */
  error: string | null;
  excerpt: string | null;
}

export interface AttemptInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** The address rule's setting and how names are looked up (shared/rules/target-address.ts). */
  targets: TargetCheck;
  /** NODE_ENV=production: only https URLs are sent to. */
  httpsOnly: boolean;
  timeoutMs?: number;
}

/** The first 1 KiB of an answer as text (never a NUL: PostgreSQL's text cannot hold one). */
function excerptOf(bytes: Buffer): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is removed
  return new TextDecoder().decode(bytes.subarray(0, EXCERPT_BYTES)).replace(/\u0000/g, '');
}

/**
 * One POST of a delivery. The URL's host is resolved once and every address it stands for is
 * checked by the address rule (lib/outbound-address.ts); the connection goes to exactly the
 * address that was checked (the `lookup` below answers with it, so nothing looks the name up a
 * second time: DNS rebinding), while the Host header and TLS's server name stay the URL's name.
 * 10 s for the whole attempt, at most 64 KiB of the answer read.
 */
export async function sendAttempt(input: AttemptInput): Promise<AttemptOutcome> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const failed = (error: string): AttemptOutcome => ({
    ok: false,
    status: null,
    latencyMs: latency(),
    error,
    excerpt: null,
  });
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return failed('not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return failed('not an http(s) URL');
  if (input.httpsOnly && url.protocol !== 'https:') {
    return failed('only https URLs are sent to in production');
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let address: string;
  try {
    address = await outboundAddress(host, input.targets);
  } catch (error) {
    if (error instanceof OutboundRefused) return failed(`refused: ${error.message}`);
    throw error;
  }
  const family = isIP(address) === 6 ? 6 : 4;
  // Answers every lookup of this request with the address checked above.
  const pinned = ((_name: string, options: { all?: boolean }, callback: unknown) => {
    const cb = callback as (
      err: Error | null,
      address: string | { address: string; family: number }[],
      family?: number,
    ) => void;
    if (options?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  }) as unknown as LookupFunction;

  const timeoutMs = input.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = transport.request(
      {
        protocol: url.protocol,
        hostname: host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        agent: false,
        lookup: pinned,
        ...(url.protocol === 'https:' && isIP(host) === 0 ? { servername: host } : {}),
        headers: {
          ...input.headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(input.body),
          'user-agent': 'RentGPU-Webhooks/1.0',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const bytes = Buffer.concat(chunks);
          finish({
            ok: status >= 200 && status < 300,
            status,
            latencyMs: latency(),
            error: null,
            excerpt: excerptOf(bytes),
          });
          // Nothing more is read: the connection goes.
          response.destroy();
          request.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          const room = MAX_RESPONSE_BYTES - size;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          size += Math.min(chunk.length, room);
          if (size >= MAX_RESPONSE_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish(failed(`no answer within ${timeoutMs / 1000} s`));
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish(failed(error.code ? `${error.code}: ${error.message}` : error.message));
    });
    request.end(input.body);
  });
}
