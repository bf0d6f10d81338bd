import { FitAddon } from '@xterm/addon-fit';
import { type ITheme, Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { RotateCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import {
  CONSOLE_CLOSE,
  type ConsoleClientMessage,
  consoleServerMessage,
} from '../../../../shared/contracts/console';
import { INSTANCE_STATES, isTransitional } from '../../../../shared/rules/instance-lifecycle';
import { userFacingMessage } from '../../../../shared/rules/system-error';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { serverErrorDetails, serverMessage } from '../../../lib/api-client';
import { consoleSocketUrl, getConsoleStatus } from '../api/get-console-status';

type Connection =
  | { kind: 'connecting' }
  | { kind: 'connected' }
  | { kind: 'disconnected'; reason: string };

/** The server refuses sizes outside these (shared/contracts/console.ts). */
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Terminal colours from the page's theme: the card's background and text, the brand colour
 * for the cursor; ANSI colours readable on a dark or on a light background.
 */
function terminalTheme(mode: 'dark' | 'light'): ITheme {
  const css = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const base: ITheme = {
    background: read('--card', mode === 'dark' ? '#121a2e' : '#ffffff'),
    foreground: read('--foreground', mode === 'dark' ? '#e6e9f2' : '#0f172a'),
    cursor: read('--primary', '#6366f1'),
    cursorAccent: read('--card', '#000000'),
    selectionBackground: mode === 'dark' ? '#3b4a6b' : '#c7d2fe',
  };
  if (mode === 'dark') return base;
  // xterm's default palette is made for dark backgrounds: yellow and white vanish on white.
  return {
    ...base,
    black: '#1e293b',
    red: '#b91c1c',
    green: '#15803d',
    yellow: '#a16207',
    blue: '#1d4ed8',
    magenta: '#a21caf',
    cyan: '#0e7490',
    white: '#64748b',
    brightBlack: '#475569',
    brightRed: '#dc2626',
    brightGreen: '#16a34a',
    brightYellow: '#ca8a04',
    brightBlue: '#2563eb',
    brightMagenta: '#c026d3',
    brightCyan: '#0891b2',
    brightWhite: '#334155',
  };
}

/** How often a console refused for a state the host is moving through asks again. */
const ASK_AGAIN_MS = 3000;

/**
 * Whether the console was refused for a state the instance leaves without anyone acting
 * (provisioning, starting, stopping, terminating: the server's 409 names it in `details.state`):
 * then asking again later gets another answer.
 */
function refusedForNow(error: unknown): boolean {
  const { state } = serverErrorDetails(error);
  return INSTANCE_STATES.some((known) => known === state && isTransitional(known));
}

/** A text frame from the server: a control message, or null when it is not one. */
function readControl(text: string) {
  try {
    const parsed = consoleServerMessage.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

interface ConsoleTerminalProps {
  instanceId: number;
  /** The page's colour scheme; the terminal follows it. */
  mode: 'dark' | 'light';
  /** The app's theme name, so a change of theme re-reads its colours. */
  themeName: string;
}

/**
 * A terminal on the instance: xterm.js over the console WebSocket (framing in
 * shared/contracts/console.ts). It asks first whether the console can open, so a refusal
 * shows the server's reason; a session the server ends shows the close reason. While the
 * instance is on its way somewhere (starting, stopping, ...) it asks again every few seconds,
 * so the page connects once the instance runs, or says where it ended, without Reconnect.
 */
export function ConsoleTerminal({ instanceId, mode, themeName }: ConsoleTerminalProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const terminalRef = useRef<{ term: Terminal; fit: FitAddon } | null>(null);
  const [connection, setConnection] = useState<Connection>({ kind: 'connecting' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const term = new Terminal({
      cursorBlink: true,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
      fontSize: 14,
      scrollback: 5000,
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(container);
    fit.fit();
    terminalRef.current = { term, fit };
    // The terminal follows the window's width both ways: its box is as wide as the page
    // allows (never its content's width: min-w-0 down the flex chain), and each change of the
    // box or the window fits the columns to it once per frame (the server's pty follows).
    let frame = 0;
    const refit = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => fit.fit());
    };
    const observer = new ResizeObserver(refit);
    observer.observe(container);
    window.addEventListener('resize', refit);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      window.removeEventListener('resize', refit);
      term.dispose();
      terminalRef.current = null;
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the theme's CSS variables change with its name.
  useEffect(() => {
    const terminal = terminalRef.current;
    if (terminal) terminal.term.options.theme = terminalTheme(mode);
  }, [mode, themeName]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt (Reconnect) connects again.
  useEffect(() => {
    const terminal = terminalRef.current;
    if (!terminal) return;
    const { term, fit } = terminal;
    let socket: WebSocket | null = null;
    let cancelled = false;
    const encoder = new TextEncoder();
    const disconnected = (reason: string) => {
      if (!cancelled) setConnection({ kind: 'disconnected', reason });
    };
    const send = (data: string | Uint8Array) => {
      if (socket?.readyState === WebSocket.OPEN) socket.send(data);
    };

    term.reset();
    setConnection({ kind: 'connecting' });
    let askAgain: ReturnType<typeof setTimeout> | undefined;
    const open = async () => {
      try {
        await getConsoleStatus(instanceId);
      } catch (error) {
        disconnected(serverMessage(error, 'The console could not be opened.'));
        if (refusedForNow(error) && !cancelled) askAgain = setTimeout(open, ASK_AGAIN_MS);
        return;
      }
      if (cancelled) return;
      setConnection({ kind: 'connecting' });
      fit.fit();
      const ws = new WebSocket(
        consoleSocketUrl(instanceId, clamp(term.cols, 10, 500), clamp(term.rows, 2, 200)),
      );
      socket = ws;
      ws.binaryType = 'arraybuffer';
      ws.onmessage = (event: MessageEvent<string | ArrayBuffer>) => {
        if (typeof event.data !== 'string') {
          term.write(new Uint8Array(event.data));
          return;
        }
        if (readControl(event.data)?.type === 'ready' && !cancelled) {
          setConnection({ kind: 'connected' });
          term.focus();
        }
      };
      ws.onclose = (event) => {
        if (cancelled) return;
        if (event.reason) {
          disconnected(userFacingMessage(event.reason, 'The connection to the console was lost.'));
          // Ended because the instance stopped running: follow it to where it ends up.
          if (event.code === CONSOLE_CLOSE.notRunning) askAgain = setTimeout(open, ASK_AGAIN_MS);
          return;
        }
        // Refused before it opened (the browser hides why): ask the server again.
        getConsoleStatus(instanceId).then(
          () => disconnected('The connection to the console was lost.'),
          (error: unknown) => {
            disconnected(serverMessage(error, 'The connection to the console was lost.'));
            if (refusedForNow(error) && !cancelled) askAgain = setTimeout(open, ASK_AGAIN_MS);
          },
        );
      };
    };
    void open();

    const typed = term.onData((data) => send(encoder.encode(data)));
    const typedBinary = term.onBinary((data) =>
      send(Uint8Array.from(data, (char) => char.charCodeAt(0) & 0xff)),
    );
    const resized = term.onResize(({ cols, rows }) => {
      const message: ConsoleClientMessage = {
        type: 'resize',
        cols: clamp(cols, 10, 500),
        rows: clamp(rows, 2, 200),
      };
      send(JSON.stringify(message));
    });
    return () => {
      cancelled = true;
      clearTimeout(askAgain);
      typed.dispose();
      typedBinary.dispose();
      resized.dispose();
      socket?.close(1000, 'Closed by the user.');
    };
  }, [instanceId, attempt]);

  return (
    <div className="flex min-h-0 min-w-0 flex-1 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div role="status" aria-live="polite" data-testid="console-state" className="min-w-0">
          {connection.kind === 'connecting' ? (
            <Badge tone="warning">Connecting…</Badge>
          ) : connection.kind === 'connected' ? (
            <Badge tone="success">Connected</Badge>
          ) : (
            // A reason is a sentence or two: it wraps inside the window (a badge does not wrap
            // by itself — `!` outranks its nowrap), rounded as a box rather than a pill.
            <Badge
              tone="danger"
              className="inline-block max-w-full shrink rounded-lg whitespace-normal! [overflow-wrap:anywhere]"
            >
              Disconnected: {connection.reason}
            </Badge>
          )}
        </div>
        <Button
          variant="outline"
          size="sm"
          onClick={() => setAttempt((n) => n + 1)}
          disabled={connection.kind === 'connecting'}
        >
          <RotateCw className="h-4 w-4" aria-hidden="true" />
          Reconnect
        </Button>
      </div>
      <div
        className="min-h-0 min-w-0 flex-1 overflow-hidden rounded-xl border border-border bg-card p-2"
        data-testid="console-terminal"
      >
        <div ref={containerRef} className="h-full w-full min-w-0 overflow-hidden" />
      </div>
    </div>
  );
}
