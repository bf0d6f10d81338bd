import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { CommandError, EXIT, type Io } from './commands/context';
import { parseCliEnv } from './env';

/** The process's own input and output, and its environment read once. */
export function processIo(): Io {
  // A reader that went away (`rentgpu events tail | head -1`): end quietly, as Unix tools do.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    isTTY: Boolean(process.stdout.isTTY),
    env: parseCliEnv(),
    exec: (command, args) =>
      new Promise((resolve, reject) => {
        const child = spawn(command, args, { stdio: 'inherit' });
        child.once('error', (error: NodeJS.ErrnoException) =>
          reject(
            error.code === 'ENOENT'
              ? new CommandError(`${command} is not installed (or not on PATH).`)
              : error,
          ),
        );
        child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : EXIT.api)));
      }),
    prompt: (question) => readLine(process.stdin, process.stderr, question),
    onInterrupt: (stop) => {
      const once = () => {
        process.off('SIGINT', once);
        process.off('SIGTERM', once);
        stop();
      };
      process.on('SIGINT', once);
      process.on('SIGTERM', once);
      return () => {
        process.off('SIGINT', once);
        process.off('SIGTERM', once);
      };
    },
  };
}

/**
 * One line of input (the key at login). The question is asked only of a person at a terminal:
 * a key piped in (`echo $KEY | rentgpu login`) leaves no stray prompt on the output.
 */
export function readLine(
  input: Readable & { isTTY?: boolean },
  output: Writable,
  question: string,
): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: false });
    if (input.isTTY) output.write(question);
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!answered) resolve('');
    });
  });
}
