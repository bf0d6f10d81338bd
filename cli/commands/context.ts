import { InvalidArgumentError } from 'commander';
import type { ClientOptions, Request } from '../client';
import type { CliEnv } from '../env';

/** Exit codes: documented in README ("The rentgpu CLI"). */
export const EXIT = { ok: 0, api: 1, usage: 2, auth: 3, network: 4 } as const;

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Reads one line (the key at login). */
  prompt(question: string): Promise<string>;
  /** Runs a program with this terminal (stdio inherited); answers its exit code. */
  exec(command: string, args: string[]): Promise<number>;
  isTTY: boolean;
  env: CliEnv;
  /**
   * Between two reads of an instance while `--wait` waits, and the least time between two
   * answers without news while `events tail` follows (tests pass a short one).
   */
  pollMs?: number;
  /** The first wait after a failed call while `events tail` follows (tests pass a short one). */
  retryMs?: number;
  /**
   * Calls `stop` on the first SIGINT or SIGTERM (a second one ends the process as usual);
   * answers a function that stops listening. Only commands that run until stopped use it.
   */
  onInterrupt?(stop: () => void): () => void;
}

/** The options given before the command's name. */
export interface GlobalOptions {
  apiKey?: string;
  apiUrl?: string;
  json?: boolean;
  explain?: boolean;
}

/** A mistake in the command line or its state: printed, exit code 2. */
export class UsageError extends Error {}
/** The call worked but the command cannot go on (e.g. the instance is not running): exit 1. */
export class CommandError extends Error {}
/** A call needs a key and there is none (flag, environment or stored): exit 3. */
export class NotLoggedIn extends Error {}

/** What a command needs of the program: calls, output and the exit code. */
export interface Ctx {
  io: Io;
  globals(): GlobalOptions;
  /** How calls go out: the server, this key (else the one in use), --explain. */
  client(key?: string): ClientOptions;
  /** A call that needs a key; with --explain it prints the request and answers undefined. */
  api<T>(request: Request): Promise<T | undefined>;
  /** Prints an answer: JSON as the API gave it, or the terminal form. */
  show<T>(answer: T | undefined, human: (answer: T) => string): void;
  /** Whether output is JSON (--json, or stdout is not a terminal). */
  json(): boolean;
  /** The process's exit code once the command is done (a program it ran). */
  exitWith(code: number): void;
}

export function positiveInt(what: string) {
  return (value: string): number => {
    if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) {
      throw new InvalidArgumentError(`${what} must be a positive whole number.`);
    }
    return Number(value);
  };
}
