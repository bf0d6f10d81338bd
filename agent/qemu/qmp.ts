import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A small QMP client (QEMU Machine Protocol) over QEMU's unix socket, no library: one JSON
 * object per line; a greeting first, then `qmp_capabilities`; each command carries an `id`
 * that QEMU echoes in its `return`/`error`; events arrive in between, unasked.
 */

export interface QmpEvent {
  event: string;
  data?: unknown;
  timestamp?: { seconds: number; microseconds: number };
}

export class QmpError extends Error {
  override name = 'QmpError';
  constructor(
    message: string,
    readonly qmpClass: string | null = null,
  ) {
    super(message);
  }
}

/** Splits a byte stream into lines; keeps a partial last line for the next chunk. */
export class LineSplitter {
  private rest = '';
  push(chunk: string): string[] {
    this.rest += chunk;
    const parts = this.rest.split('\n');
    this.rest = parts.pop() ?? '';
    return parts.map((p) => p.trim()).filter((p) => p !== '');
  }
}

export type QmpMessage =
  | { kind: 'greeting'; version: unknown }
  | { kind: 'return'; id: string | null; value: unknown }
  | { kind: 'error'; id: string | null; errorClass: string; desc: string }
  | { kind: 'event'; event: QmpEvent }
  | { kind: 'garbage'; line: string };

/** One line of QMP → what it is. Never throws. */
export function parseQmpLine(line: string): QmpMessage {
  let msg: unknown;
  try {
    msg = JSON.parse(line);
  } catch {
    return { kind: 'garbage', line };
  }
  if (typeof msg !== 'object' || msg === null) return { kind: 'garbage', line };
  const o = msg as Record<string, unknown>;
  const id = typeof o.id === 'string' ? o.id : null;
  if ('QMP' in o) return { kind: 'greeting', version: (o.QMP as { version?: unknown })?.version };
  if ('return' in o) return { kind: 'return', id, value: o.return };
  if ('error' in o && typeof o.error === 'object' && o.error !== null) {
    const e = o.error as { class?: unknown; desc?: unknown };
    return {
      kind: 'error',
      id,
      errorClass: typeof e.class === 'string' ? e.class : 'GenericError',
      desc: typeof e.desc === 'string' ? e.desc : 'QMP error',
    };
  }
  if (typeof o.event === 'string') return { kind: 'event', event: o as unknown as QmpEvent };
  return { kind: 'garbage', line };
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}

export class QmpClient {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(e: QmpEvent) => void>();
  private nextId = 1;
  private isClosed = false;
  /** Resolves when the socket closes (for a `quit`: QEMU has gone). */
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    this.closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.isClosed = true;
        for (const p of this.pending.values()) p.reject(new QmpError('QMP connection closed'));
        this.pending.clear();
        resolve();
      });
    });
  }

  /**
   * Connects once the socket answers: it appears a moment after QEMU daemonizes, so a failed
   * connect is tried again every 100 ms, `tries` times in all; then its error.
   */
  static async connectWhenReady(path: string, tries = 20): Promise<QmpClient> {
    let lastError: unknown = new QmpError(`QMP unreachable at ${path}`);
    for (let i = 0; i < tries; i++) {
      try {
        return await QmpClient.connect(path);
      } catch (err) {
        lastError = err;
        await sleep(100);
      }
    }
    throw lastError;
  }

  /** Connects, reads the greeting and negotiates capabilities. */
  static connect(path: string, timeoutMs = 5000): Promise<QmpClient> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(path);
      socket.setEncoding('utf8');
      const client = new QmpClient(socket);
      const splitter = new LineSplitter();
      let greeted = false;
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new QmpError(`no QMP greeting on ${path} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      socket.on('error', () => {
        // after connect: surfaced through `closed` and rejected commands
      });
      socket.on('data', (chunk: string) => {
        for (const line of splitter.push(chunk)) {
          const msg = parseQmpLine(line);
          if (msg.kind === 'greeting' && !greeted) {
            greeted = true;
            client.execute('qmp_capabilities').then(
              () => {
                clearTimeout(timer);
                resolve(client);
              },
              (err: Error) => {
                clearTimeout(timer);
                reject(err);
              },
            );
          } else client.dispatch(msg);
        }
      });
    });
  }

  private dispatch(msg: QmpMessage) {
    if (msg.kind === 'event') {
      for (const l of this.listeners) l(msg.event);
    } else if (msg.kind === 'return' || msg.kind === 'error') {
      const p = msg.id === null ? undefined : this.pending.get(msg.id);
      if (!p || msg.id === null) return;
      this.pending.delete(msg.id);
      if (msg.kind === 'return') p.resolve(msg.value);
      else p.reject(new QmpError(msg.desc, msg.errorClass));
    }
  }

  execute(command: string, args?: Record<string, unknown>): Promise<unknown> {
    if (this.isClosed) return Promise.reject(new QmpError('QMP connection closed'));
    const id = `c${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.write(
        `${JSON.stringify(args ? { execute: command, arguments: args, id } : { execute: command, id })}\n`,
      );
    });
  }

  /** Resolves at the next event of that name; rejects on timeout or when the socket closes. */
  waitEvent(name: string, timeoutMs: number): Promise<QmpEvent> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const listener = (e: QmpEvent) => {
        if (e.event === name) {
          done();
          resolve(e);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new QmpError(`no ${name} event within ${timeoutMs} ms`));
      }, timeoutMs);
      this.listeners.add(listener);
      void this.closed.then(() => {
        if (this.listeners.has(listener)) {
          done();
          reject(new QmpError(`QMP connection closed before ${name}`));
        }
      });
    });
  }

  onEvent(listener: (e: QmpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close() {
    this.socket.end();
    this.socket.destroy();
  }
}
