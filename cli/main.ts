import { Command } from 'commander';
import { type ClientOptions, call, type Request } from './client';
import { registerAccount } from './commands/account';
import { type Ctx, EXIT, type GlobalOptions, type Io, NotLoggedIn } from './commands/context';
import { registerEvents } from './commands/events';
import { registerGpus } from './commands/gpus';
import { registerInstances } from './commands/instances';
import { registerLogin } from './commands/login';
import { registerSshKeys } from './commands/ssh-keys';
import { registerTemplates } from './commands/templates';
import { registerWebhooks } from './commands/webhooks';
import { resolveKey, resolveUrl } from './config';
import { reportFailure } from './failure';

/** Builds the program; `run` parses one command line with it (and reads `result.exitCode`). */
function program(io: Io, result: { exitCode: number }): Command {
  const root = new Command('rentgpu')
    .description('RentGPU from the command line, through the public API (/api/v1).')
    .option('--api-key <key>', 'API key (else RENTGPU_API_KEY, else the one stored by login)')
    .option('--api-url <url>', 'server (else RENTGPU_API_URL, else http://localhost:5000)')
    .option('--json', 'print JSON (the default when output is not a terminal)')
    .option(
      '--explain',
      'print the request (method, URL, headers, body; key redacted), send nothing',
    )
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });

  const globals = () => root.opts<GlobalOptions>();
  const json = () => Boolean(globals().json) || !io.isTTY;
  const client = (key = resolveKey(globals().apiKey, io.env)): ClientOptions => ({
    apiUrl: resolveUrl(globals().apiUrl, io.env),
    apiKey: key,
    explain: Boolean(globals().explain),
    log: (line) => io.err(`${line}\n`),
  });
  const api = async <T>(request: Request): Promise<T | undefined> => {
    const options = client();
    if (!options.apiKey && !options.explain) throw new NotLoggedIn();
    return call<T>(options, request);
  };
  const show = <T>(answer: T | undefined, human: (answer: T) => string) => {
    if (answer === undefined) return;
    io.out(`${json() ? JSON.stringify(answer, null, 2) : human(answer)}\n`);
  };
  const ctx: Ctx = {
    io,
    globals,
    client,
    api,
    show,
    json,
    exitWith: (code) => (result.exitCode = code),
  };

  // The order here is the order `rentgpu --help` lists them in.
  registerLogin(root, ctx);
  registerGpus(root, ctx);
  registerInstances(root, ctx);
  registerTemplates(root, ctx);
  registerAccount(root, ctx);
  registerSshKeys(root, ctx);
  registerEvents(root, ctx);
  registerWebhooks(root, ctx);
  return root;
}

/** Runs one command line (argv without node and script); answers the exit code. */
export async function run(args: string[], io: Io): Promise<number> {
  const result = { exitCode: EXIT.ok as number };
  try {
    await program(io, result).parseAsync(args, { from: 'user' });
    return result.exitCode;
  } catch (error) {
    return reportFailure(error, io);
  }
}
