import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Io } from '../commands/context';

/**
 * What the CLI's unit tests share: a stub of the public API on a port (each test says what it
 * answers) and an `Io` that keeps what the CLI printed.
 */

/** What the stub answers a call: a status and JSON body (none when `json` is left out), or drop. */
export type StubAnswer = { status?: number; json?: unknown } | 'drop';

export interface StubApi {
  /** Where it listens (`http://127.0.0.1:<port>`). */
  url: string;
  /** Each call it got, in order: a test empties it. */
  seen: { method: string; url: string; body: string }[];
  /** Calls it still holds (the handler has not answered yet). */
  held: Set<ServerResponse>;
  close(): Promise<void>;
}

/**
 * Starts a stub of the public API that answers each call with `answer` (it may wait) and keeps
 * each call in `seen`.
 */
export async function startStubApi(
  answer: (req: IncomingMessage, body: string) => StubAnswer | Promise<StubAnswer>,
  seen: StubApi['seen'] = [],
): Promise<StubApi> {
  const held = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', async () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      held.add(res);
      res.on('close', () => held.delete(res));
      const reply = await answer(req, body);
      if (reply === 'drop') {
        req.socket.destroy();
        return;
      }
      if (res.destroyed) return;
      res.statusCode = reply.status ?? 200;
      if (reply.json === undefined) {
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    held,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * An `Io` for `run` that keeps what the CLI printed (`stdout()`, `stderr()`): no terminal, no
 * answer to a prompt, every program it runs exits 0, the key `rgpu_test`; `env` and `more`
 * change any of that.
 */
export function captureIo(env: Partial<Io['env']> & { apiUrl: string }, more: Partial<Io> = {}) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    prompt: async () => '',
    exec: async () => 0,
    isTTY: false,
    ...more,
    env: {
      apiKey: 'rgpu_test',
      configFile: path.join(tmpdir(), 'rentgpu-cli-unit', 'config.json'),
      ...env,
    },
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}
