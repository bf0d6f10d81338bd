import { createRequire } from 'node:module';

interface WsSocket {
  readonly readyState: number;
  send(data: string | Buffer): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: Buffer, binary: boolean) => void): void;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): void;
  on(event: 'open', listener: () => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  on(
    event: 'unexpected-response',
    listener: (req: unknown, res: { statusCode?: number }) => void,
  ): void;
}

// `ws` (the WebSocket library under @fastify/websocket) ships no types; Node 20 has no
// global WebSocket client.
const WebSocket = createRequire(import.meta.url)('ws') as new (
  url: string,
  options?: { headers?: Record<string, string> },
) => WsSocket;

export interface ConsoleClient {
  socket: WsSocket;
  /** Every binary frame as text, in order. */
  output(): string;
  /** Text (control) frames, parsed. */
  controls: unknown[];
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once `text` appears in the output (rejects after `ms`). */
  waitFor(text: string, ms?: number): Promise<void>;
  /** Sends keystrokes (a binary frame). */
  type(text: string): void;
}

/** Opens a WebSocket; resolves once open, or rejects with the HTTP status that refused it. */
export function openConsoleSocket(
  url: string,
  headers: Record<string, string> = {},
): Promise<ConsoleClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    let text = '';
    const controls: unknown[] = [];
    const watchers: Array<() => void> = [];
    let refusedWith: number | undefined;
    const closed = new Promise<{ code: number; reason: string }>((done) => {
      socket.on('close', (code, reason) => done({ code, reason: reason.toString() }));
    });
    socket.on('message', (data, binary) => {
      if (binary) {
        text += data.toString('utf8');
        for (const watch of watchers) watch();
      } else controls.push(JSON.parse(data.toString('utf8')));
    });
    socket.on('unexpected-response', (req, res) => {
      refusedWith = res.statusCode;
      (req as { destroy(): void }).destroy();
      reject(
        Object.assign(new Error(`refused with ${res.statusCode}`), { status: res.statusCode }),
      );
    });
    socket.on('error', (error) => {
      if (refusedWith === undefined) reject(error);
    });
    socket.on('open', () =>
      resolve({
        socket,
        output: () => text,
        controls,
        closed,
        type: (keys) => socket.send(Buffer.from(keys)),
        waitFor: (wanted, ms = 15_000) =>
          new Promise((ok, fail) => {
            const timer = setTimeout(
              () => fail(new Error(`"${wanted}" not seen in: ${JSON.stringify(text)}`)),
              ms,
            );
            const check = () => {
              if (text.includes(wanted)) {
                clearTimeout(timer);
                ok();
              }
            };
            watchers.push(check);
            check();
          }),
      }),
    );
  });
}
