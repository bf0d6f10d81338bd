import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A local image server: serves `files` with Range support, and can break the first transfer of
 * a file halfway (the socket destroyed) so the cache has to resume.
 */
export class ImageServer {
  readonly files = new Map<string, Buffer>();
  readonly requests: { path: string; range: string | null }[] = [];
  /** Paths whose next transfer is cut off after this many bytes. */
  readonly cutAfter = new Map<string, number>();
  /** Held open until released: lets a test see a download in flight. */
  gate: Promise<void> | null = null;
  /** Answer every request with the whole file (200), as a server without Range support. */
  ignoreRange = false;
  /** Sends each body in this many pieces with a pause between (a download that takes a while). */
  trickle: { pieces: number; pauseMs: number } | null = null;
  private server: http.Server | null = null;
  url = '';

  async start() {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close() {
    this.server?.closeAllConnections();
    return new Promise<void>((r) => this.server?.close(() => r()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const p = req.url ?? '/';
    const range = req.headers.range ?? null;
    this.requests.push({ path: p, range });
    const body = this.files.get(p);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    let start = 0;
    const m = range && !this.ignoreRange ? /^bytes=(\d+)-$/.exec(range) : null;
    if (m) {
      start = Number(m[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      res.writeHead(206, {
        'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
        'content-length': body.length - start,
      });
    } else {
      res.writeHead(200, { 'content-length': body.length });
    }
    if (this.gate) await this.gate;
    const cut = this.cutAfter.get(p);
    if (cut !== undefined) {
      this.cutAfter.delete(p);
      res.write(body.subarray(start, start + cut), () => {
        setTimeout(() => res.socket?.destroy(), 20);
      });
      return;
    }
    if (this.trickle) {
      const rest = body.subarray(start);
      const size = Math.ceil(rest.length / this.trickle.pieces);
      for (let at = 0; at < rest.length; at += size) {
        if (!res.write(rest.subarray(at, at + size))) await once(res, 'drain');
        await sleep(this.trickle.pauseMs);
      }
      res.end();
      return;
    }
    res.end(body.subarray(start));
  }
}
