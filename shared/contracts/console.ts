import { z } from 'zod';

/**
 * The web console (docs/architecture.md, "Web console"): `GET /api/kvm/instances/:id/console`.
 * A plain GET answers whether the console can open (`consoleView`, or the error body saying
 * why not); the same URL upgraded to a WebSocket is the terminal itself.
 *
 * Framing on the WebSocket:
 * - binary frames carry the terminal's bytes: browser → server is keyboard input for the
 *   shell, server → browser is the shell's output (pty: stdout and stderr together);
 * - text frames carry one JSON control message each: browser → server `consoleClientMessage`
 *   (a resize), server → browser `consoleServerMessage` (`ready` once the shell is open).
 * The server ends a session by closing the socket with one of `CONSOLE_CLOSE` and a reason
 * a person can read.
 */
export const consoleQuery = z.object({
  cols: z.coerce
    .number({ message: 'Not a number of columns' })
    .int({ message: 'Not a number of columns' })
    .min(10, { message: 'At least 10 columns' })
    .max(500, { message: 'At most 500 columns' })
    .default(80),
  rows: z.coerce
    .number({ message: 'Not a number of rows' })
    .int({ message: 'Not a number of rows' })
    .min(2, { message: 'At least 2 rows' })
    .max(200, { message: 'At most 200 rows' })
    .default(24),
});

/** The GET answer: the instance is the caller's, running, and has a console key. */
export const consoleView = z.object({
  instanceId: z.number().int(),
  status: z.literal('running'),
  sshUsername: z.string(),
});
export type ConsoleView = z.infer<typeof consoleView>;

export const consoleClientMessage = z.object({
  type: z.literal('resize'),
  cols: consoleQuery.shape.cols.unwrap(),
  rows: consoleQuery.shape.rows.unwrap(),
});
export type ConsoleClientMessage = z.infer<typeof consoleClientMessage>;

export const consoleServerMessage = z.object({ type: z.literal('ready') });
export type ConsoleServerMessage = z.infer<typeof consoleServerMessage>;

/** Close codes the server uses (the reason text says the rest). */
export const CONSOLE_CLOSE = {
  /** The shell exited or the SSH connection ended. */
  ended: 1000,
  /** A text frame that is not a control message. */
  badMessage: 4400,
  /** The browser's session ended (signed out or expired). */
  signedOut: 4401,
  /** The instance is not running (any more). */
  notRunning: 4409,
  /** The user already has the most consoles open at once (server/modules/instances/console/guards.ts). */
  tooManySessions: 4429,
  /** SSH to the instance failed. */
  sshFailed: 4502,
  /** The server could not open the console (its own failure, not the instance's). */
  serverError: 1011,
} as const;

/**
 * How often the server checks that the instance still runs and the session still lives, unless
 * its CONSOLE_STATUS_POLL_MS says otherwise (server/env.ts).
 */
export const CONSOLE_STATUS_POLL_MS = 5000;
