import ssh2, { type ClientChannel } from 'ssh2';
import { CONSOLE_CLOSE, type ConsoleServerMessage } from '../../../../shared/contracts/console';
import { OutboundRefused, outboundAddress, type TargetCheck } from '../../../lib/outbound-address';
import type { ConsoleTarget } from '../types';
import {
  CONSOLE_KEY_REFUSED,
  CONSOLE_NO_SHELL,
  CONSOLE_UNREACHABLE,
  closeReason,
  HOST_KEY_CHANGED,
  parseControl,
  toBuffer,
} from './closing';
import { hostKeyAlgorithms, hostKeyFingerprint, hostKeyLine, storedHostKey } from './guards';

/**
 * One web console session: a browser's WebSocket piped to a shell on the instance over SSH,
 * logged in with the platform's per-instance key. Framing (shared/contracts/console.ts):
 * binary frames are terminal bytes both ways; a text frame is one JSON control message —
 * `{type:'resize',cols,rows}` from the browser, `{type:'ready'}` from the server once the
 * shell is open. The server closes the socket with a CONSOLE_CLOSE code and a readable reason.
 */

/** What the session needs of a `ws` WebSocket (the server side of @fastify/websocket). */
export interface ConsoleSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: Buffer | string, options: { binary: boolean }, callback?: () => void): void;
  close(code: number, reason: string): void;
  on(
    event: 'message',
    listener: (data: Buffer | ArrayBuffer | Buffer[], binary: boolean) => void,
  ): unknown;
  on(event: 'close', listener: () => void): unknown;
}

export interface ConsoleSessionOptions {
  cols: number;
  rows: number;
  /** Asked every `pollMs`: a reason to end the session (the instance stopped, signed out), or null. */
  check: () => Promise<{ code: number; reason: string } | null>;
  pollMs: number;
  /** SSH handshake and login must finish within this (ms). */
  readyTimeoutMs?: number;
  /**
   * Waited for before connecting: a reason not to open the session after all (the user has
   * the most consoles open), or null to go on.
   */
  admit?: Promise<{ code: number; reason: string } | null>;
  /**
   * Where no host key is stored for the instance's run: pins the key the guest showed on the
   * instance (when none is stored still) and answers the key stored now, which the guest's
   * must be; null when the run is over. Without it any host key is accepted.
   */
  pinHostKey?: (key: { line: string; fingerprint: string }) => Promise<string | null>;
  /**
   * The address rule's setting and resolver (app.deps.targets): the instance's address may be
   * loopback, private, link-local or this server's own only in a lab
   * (ALLOW_PRIVATE_HOST_ADDRESSES); a metadata service's never.
   */
  targets: TargetCheck;
  log?: {
    warn(obj: object, msg: string): void;
    info(obj: object, msg: string): void;
  };
}

const OPEN = 1;
const CONNECTING = 0;
/** Keystrokes typed before the shell opens are kept up to this much, then dropped. */
const MAX_PENDING_INPUT = 64 * 1024;
/** Output waiting in the socket's buffer above this pauses the shell until the browser catches up. */
const HIGH_WATER = 1024 * 1024;

export function runConsoleSession(
  socket: ConsoleSocket,
  target: ConsoleTarget,
  options: ConsoleSessionOptions,
): void {
  const client = new ssh2.Client();
  let shell: ClientChannel | null = null;
  let ended = false;
  let paused = false;
  let pending: Buffer[] = [];
  let pendingBytes = 0;

  const end = (code: number, reason: string) => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    client.end();
    if (socket.readyState === OPEN || socket.readyState === CONNECTING) {
      socket.close(code, closeReason(reason));
    }
  };

  /**
   * The SSH side ended: when the instance is stopping (its shutdown drops the connection
   * before the next poll), that is the reason the person should read.
   */
  let sshEnded = false;
  const endFromSsh = (code: number, reason: string) => {
    // The first word from SSH (an error, then 'close') is the one that says what happened.
    if (ended || sshEnded) return;
    sshEnded = true;
    options.check().then(
      (why) => end(why?.code ?? code, why?.reason ?? reason),
      () => end(code, reason),
    );
  };

  const sendOutput = (chunk: Buffer) => {
    if (socket.readyState !== OPEN) return;
    socket.send(chunk, { binary: true }, () => {
      if (paused && socket.bufferedAmount < HIGH_WATER / 4) {
        paused = false;
        shell?.resume();
      }
    });
    if (!paused && socket.bufferedAmount > HIGH_WATER) {
      paused = true;
      shell?.pause();
    }
  };

  socket.on('message', (data, binary) => {
    const bytes = toBuffer(data);
    if (binary) {
      if (shell) shell.write(bytes);
      else if (pendingBytes + bytes.length <= MAX_PENDING_INPUT) {
        pending.push(bytes);
        pendingBytes += bytes.length;
      }
      return;
    }
    const message = parseControl(bytes);
    if (!message) {
      end(CONSOLE_CLOSE.badMessage, 'Unreadable control message.');
      return;
    }
    options.cols = message.cols;
    options.rows = message.rows;
    shell?.setWindow(message.rows, message.cols, 0, 0);
  });
  socket.on('close', () => {
    // The user closed the page (or the server closed the socket): end the SSH session.
    ended = true;
    clearInterval(timer);
    client.end();
  });

  client.on('ready', () => {
    client.shell(
      { term: 'xterm-256color', cols: options.cols, rows: options.rows },
      (error, channel) => {
        if (error) {
          options.log?.warn({ err: error, instanceId: target.instanceId }, 'web console shell');
          end(CONSOLE_CLOSE.sshFailed, CONSOLE_NO_SHELL);
          return;
        }
        if (ended) {
          channel.close();
          return;
        }
        shell = channel;
        const ready: ConsoleServerMessage = { type: 'ready' };
        socket.send(JSON.stringify(ready), { binary: false });
        for (const bytes of pending) channel.write(bytes);
        pending = [];
        channel.on('data', sendOutput);
        channel.stderr.on('data', sendOutput);
        channel.on('close', () => endFromSsh(CONSOLE_CLOSE.ended, 'The shell session ended.'));
      },
    );
  });
  client.on('error', (error: Error & { level?: string }) => {
    if (hostKeyRefused) {
      endFromSsh(CONSOLE_CLOSE.sshFailed, HOST_KEY_CHANGED);
      return;
    }
    // The person reads what they can act on; the server's log has the real reason (a close
    // reason that named it let a provider map the ports of whatever address it reported).
    options.log?.warn({ err: error, instanceId: target.instanceId }, 'web console SSH failed');
    endFromSsh(
      CONSOLE_CLOSE.sshFailed,
      error.level === 'client-authentication' ? CONSOLE_KEY_REFUSED : CONSOLE_UNREACHABLE,
    );
  });
  client.on('close', () => endFromSsh(CONSOLE_CLOSE.ended, 'The SSH connection closed.'));

  const timer = setInterval(() => {
    options
      .check()
      .then((why) => {
        if (why) end(why.code, why.reason);
      })
      .catch((error: unknown) => {
        options.log?.warn(
          { err: error, instanceId: target.instanceId },
          'web console check failed',
        );
      });
  }, options.pollMs);
  timer.unref();

  // Admitted (a place among the user's consoles), and the address checked: then connect.
  let hostKeyRefused = false;
  Promise.all([options.admit ?? null, outboundAddress(target.host, options.targets)]).then(
    ([refused, address]) => {
      if (ended) return;
      if (refused) end(refused.code, refused.reason);
      else connect(address);
    },
    (error: unknown) => {
      const why = error instanceof OutboundRefused ? error.message : String(error);
      options.log?.warn(
        { instanceId: target.instanceId, host: target.host, why },
        'web console: connection to the instance refused',
      );
      end(CONSOLE_CLOSE.sshFailed, CONSOLE_UNREACHABLE);
    },
  );

  // The key stored for this run (docs/decisions/015): only that key's type is negotiated,
  // and a guest that shows another key is refused.
  const refuseKey = (seen: string, expected: string) => {
    hostKeyRefused = true;
    options.log?.warn(
      { instanceId: target.instanceId, generation: target.generation, seen, expected },
      'web console: the instance showed another SSH host key than the one stored; refused',
    );
  };
  const stored = target.hostKey ? storedHostKey(target.hostKey) : null;
  const verifyStored = (key: Buffer) => {
    if (!stored) return false;
    const seen = hostKeyFingerprint(key);
    if (seen === stored.fingerprint) return true;
    refuseKey(seen, stored.fingerprint);
    return false;
  };

  // None stored: trust on first use, stored on the instance so that every server process
  // (and every restart) checks the same key; the pin of a run that is over pins nothing.
  const { pinHostKey } = options;
  const verifyPinned =
    pinHostKey &&
    ((key: Buffer, verify: (ok: boolean) => void) => {
      const fingerprint = hostKeyFingerprint(key);
      const line = hostKeyLine(key);
      if (!line) {
        refuseKey(fingerprint, 'an SSH host key');
        verify(false);
        return;
      }
      pinHostKey({ line, fingerprint }).then(
        (now) => {
          const expected = now ? storedHostKey(now) : null;
          if (now === line) {
            options.log?.info(
              { instanceId: target.instanceId, generation: target.generation, fingerprint },
              'web console: SSH host key pinned on the instance',
            );
          }
          if (expected?.fingerprint === fingerprint) verify(true);
          else {
            // A run that is over: the checks name what happened to the instance.
            if (now) refuseKey(fingerprint, expected?.fingerprint ?? now);
            verify(false);
          }
        },
        (error: unknown) => {
          options.log?.warn(
            { err: error, instanceId: target.instanceId },
            'web console: pinning the SSH host key failed',
          );
          verify(false);
        },
      );
    });

  const connect = (address: string) =>
    client.connect({
      host: address,
      port: target.port,
      username: target.username,
      privateKey: target.privateKey,
      readyTimeout: options.readyTimeoutMs ?? 20_000,
      keepaliveInterval: 15_000,
      ...(stored
        ? {
            algorithms: { serverHostKey: hostKeyAlgorithms(stored.type) },
            hostVerifier: verifyStored,
          }
        : verifyPinned
          ? { hostVerifier: verifyPinned }
          : {}),
    });
}
