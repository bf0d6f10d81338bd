import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Command, CommanderError, Option } from 'commander';
import type {
  AccountUsage,
  GpuListingsPage,
  InstanceAnswer,
  InstancesPage,
  PublicAccount,
} from '../shared/contracts/public-api';
import type { SshKeyView } from '../shared/contracts/ssh-keys';
import { ApiError, type ClientOptions, call, NetworkError, type Request } from './client';
import { CommandError, type Ctx, EXIT, type Io, positiveInt, UsageError } from './commands/context';
import { registerCredits } from './commands/credits';
import { registerInstanceExtras } from './commands/instance-extras';
import { registerTemplates } from './commands/templates';
import { gpuColumns, instanceColumns, instanceFields } from './commands/views';
import { configPath, removeConfig, resolveKey, resolveUrl, writeConfig } from './config';
import { fields, table } from './output';

export { EXIT, type Io };

interface GlobalOptions {
  apiKey?: string;
  apiUrl?: string;
  json?: boolean;
  explain?: boolean;
}

class NotLoggedIn extends Error {}

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
  /** A call that needs a key; with --explain it prints the request and answers undefined. */
  const api = async <T>(request: Request): Promise<T | undefined> => {
    const options = client();
    if (!options.apiKey && !options.explain) throw new NotLoggedIn();
    return call<T>(options, request);
  };
  /** Prints an answer: JSON as the API gave it, or the terminal form. */
  const show = <T>(answer: T | undefined, human: (answer: T) => string) => {
    if (answer === undefined) return;
    io.out(`${json() ? JSON.stringify(answer, null, 2) : human(answer)}\n`);
  };

  const ctx: Ctx = { io, api, show, json, exitWith: (code) => (result.exitCode = code) };

  root
    .command('login')
    .description('store an API key (asked for, or --api-key) after checking it')
    .action(async () => {
      const key = (globals().apiKey ?? (await io.prompt('API key: '))).trim();
      if (!key) throw new UsageError('No API key given. Create one in Settings → API Keys.');
      const account = await call<PublicAccount>(client(key), { method: 'GET', path: '/account' });
      if (!account) return;
      const file = writeConfig(io.env, {
        apiKey: key,
        ...(globals().apiUrl ? { apiUrl: resolveUrl(globals().apiUrl, io.env) } : {}),
      });
      show(
        { loggedIn: true, email: account.email, configFile: file },
        () => `Logged in as ${account.email}. Key stored in ${file}.`,
      );
    });

  root
    .command('logout')
    .description('forget the stored API key')
    .action(() => {
      const removed = removeConfig(io.env);
      const file = configPath(io.env);
      show({ loggedOut: removed, configFile: file }, () =>
        removed ? `Logged out: ${file} removed.` : 'Not logged in: no stored key.',
      );
    });

  root
    .command('whoami')
    .description('the account and key in use')
    .action(async () => {
      show(await api<PublicAccount>({ method: 'GET', path: '/account' }), (a) =>
        fields([
          ['Email', a.email],
          ['Name', [a.firstName, a.lastName].filter(Boolean).join(' ') || null],
          ['Balance', `$${a.balance} ${a.currency}`],
          ['Key', `${a.apiKey.permissions.join(', ')}; ${a.apiKey.rateTier} tier`],
          ['Requests/hour', a.apiKey.requestsPerHour],
        ]),
      );
    });

  const listGpus = async (options: {
    model?: string;
    gpuType?: string;
    sort?: string;
    limit?: number;
    cursor?: string;
  }) => {
    const page = await api<GpuListingsPage>({
      method: 'GET',
      path: '/gpu-listings',
      query: {
        model: options.model,
        gpuType: options.gpuType,
        sort: options.sort,
        limit: options.limit,
        cursor: options.cursor,
      },
    });
    show(page, (p) =>
      p.gpus.length === 0
        ? 'No GPUs match.'
        : `${table(p.gpus, gpuColumns)}${p.nextCursor ? `\nMore: --cursor ${p.nextCursor}` : ''}`,
    );
  };
  const gpuListOptions = (command: Command) =>
    command
      .option('--model <text>', 'search by model')
      .option('--gpu-type <type>', 'only this GPU type')
      .option('--sort <order>', 'price-asc, price-desc, memory or performance')
      .option('--limit <n>', 'at most this many (1-100)', positiveInt('--limit'))
      .option('--cursor <cursor>', 'the next page, from a previous list')
      .action(listGpus);

  gpuListOptions(root.command('list').description('available GPUs'));
  const gpus = root.command('gpus').description('the marketplace');
  gpuListOptions(gpus.command('list').description('available GPUs, with filters and sort'));

  const create = async (
    gpuId: number,
    options: { duration?: number; sshKey?: string; template?: string },
  ): Promise<void> => {
    const answer = await api<InstanceAnswer>({
      method: 'POST',
      path: '/instances',
      body: {
        gpuListingId: gpuId,
        ...(options.duration !== undefined ? { durationHours: options.duration } : {}),
        ...(options.sshKey ? { sshKeyId: options.sshKey } : {}),
        ...(options.template ? { template: options.template } : {}),
      },
    });
    show(
      answer,
      (a) => `Instance ${a.instance.id} is ${a.instance.status}.\n${instanceFields(a.instance)}`,
    );
  };

  root
    .command('rent')
    .description('rent a GPU for a number of hours (paid up front)')
    .argument('<gpu-id>', 'the GPU listing id (from rentgpu list)', positiveInt('gpu-id'))
    .option('--duration <hours>', 'hours to book (1-720; required)', positiveInt('--duration'))
    .addOption(new Option('--hours <hours>').argParser(positiveInt('--hours')).hideHelp())
    .option('--ssh-key <id>', 'one of your SSH keys')
    .action((gpuId: number, options: { duration?: number; hours?: number; sshKey?: string }) => {
      // --hours: an alias of --duration (earlier documentation spelled it so).
      const duration = options.duration ?? options.hours;
      if (duration === undefined) {
        throw new UsageError("required option '--duration <hours>' not specified");
      }
      return create(gpuId, { ...options, duration });
    });

  const instanceGet = async (id: number) =>
    show(await api<InstanceAnswer>({ method: 'GET', path: `/instances/${id}` }), (a) =>
      instanceFields(a.instance),
    );
  const instanceList = async (options: { status?: string; limit?: number; cursor?: string }) =>
    show(
      await api<InstancesPage>({
        method: 'GET',
        path: '/instances',
        query: { status: options.status, limit: options.limit, cursor: options.cursor },
      }),
      (p) =>
        p.instances.length === 0
          ? 'No instances.'
          : `${table(p.instances, instanceColumns)}${p.nextCursor ? `\nMore: --cursor ${p.nextCursor}` : ''}`,
    );

  root
    .command('status')
    .description('your instances, or one instance with its SSH details')
    .argument('[instance-id]', 'one instance', positiveInt('instance-id'))
    .action(async (id?: number) => (id ? instanceGet(id) : instanceList({})));

  const instances = root.command('instances').description('your GPU instances');
  instances
    .command('create')
    .description('create an instance: booked with --duration, metered (per minute) without')
    .argument('<gpu-id>', 'the GPU listing id', positiveInt('gpu-id'))
    .option('--duration <hours>', 'hours to book (1-720)', positiveInt('--duration'))
    .option('--ssh-key <id>', 'one of your SSH keys')
    .option('--template <id>', 'a template from `rentgpu templates list` (metered only)')
    .action(create);
  instances
    .command('list')
    .description('your instances, newest first')
    .option('--status <state>', 'only instances in this state (e.g. running)')
    .option('--limit <n>', 'at most this many (1-100)', positiveInt('--limit'))
    .option('--cursor <cursor>', 'the next page')
    .action(instanceList);
  instances
    .command('get')
    .argument('<instance-id>', 'the instance', positiveInt('instance-id'))
    .description('one instance with its SSH details')
    .action(instanceGet);
  const act = (
    name: string,
    description: string,
    method: 'PATCH' | 'POST' | 'DELETE',
    path: (id: number) => string,
  ) =>
    instances
      .command(name)
      .description(description)
      .argument('<instance-id>', 'the instance', positiveInt('instance-id'))
      .action(async (id: number) =>
        show(
          await api<InstanceAnswer>({ method, path: path(id) }),
          (a) => `Instance ${a.instance.id} is ${a.instance.status}.`,
        ),
      );
  act(
    'stop',
    'stop it (a booked rental ends and is settled)',
    'PATCH',
    (id) => `/instances/${id}/stop`,
  );
  act('start', 'start a stopped instance', 'POST', (id) => `/instances/${id}/start`);
  act('terminate', 'end it for good', 'DELETE', (id) => `/instances/${id}`);
  registerInstanceExtras(instances, ctx);
  registerTemplates(root, ctx);

  const account = root.command('account').description('balance and usage');
  account
    .command('balance')
    .description('your credit balance')
    .action(async () =>
      show(
        await api<PublicAccount>({ method: 'GET', path: '/account' }),
        (a) => `$${a.balance} ${a.currency}`,
      ),
    );
  account
    .command('usage')
    .description('what your instances have cost')
    .action(async () =>
      show(
        await api<AccountUsage>({ method: 'GET', path: '/account/usage' }),
        (u) =>
          `${table(u.instances, [
            ['instance', (l) => l.instanceId],
            ['gpu', (l) => l.gpuModel],
            ['plan', (l) => l.billingPlan],
            ['status', (l) => l.status],
            ['cost $', (l) => l.cost],
          ])}\nTotal: $${u.totalCost} ${u.currency}`,
      ),
    );

  registerCredits(account, ctx);

  const sshKeys = root
    .command('ssh-keys')
    .description('SSH public keys installed on new instances');
  sshKeys.command('list').action(async () =>
    show(await api<{ sshKeys: SshKeyView[] }>({ method: 'GET', path: '/ssh-keys' }), (a) =>
      a.sshKeys.length === 0
        ? 'No SSH keys.'
        : table(a.sshKeys, [
            ['id', (k) => k.id],
            ['name', (k) => k.name],
            ['type', (k) => k.type],
            ['fingerprint', (k) => k.fingerprint],
          ]),
    ),
  );
  sshKeys
    .command('add')
    .argument('<name>', 'a name for the key')
    .argument('<public-key>', 'the public key line, e.g. "ssh-ed25519 AAAA… me@laptop"')
    .action(async (name: string, publicKey: string) =>
      show(
        await api<{ sshKey: SshKeyView }>({
          method: 'POST',
          path: '/ssh-keys',
          body: { name, publicKey },
        }),
        (a) => `Added ${a.sshKey.name} (${a.sshKey.fingerprint}), id ${a.sshKey.id}.`,
      ),
    );
  sshKeys
    .command('remove')
    .argument('<id>', 'the key id (from ssh-keys list)')
    .action(async (id: string) => {
      await api({ method: 'DELETE', path: `/ssh-keys/${encodeURIComponent(id)}` });
      if (!globals().explain) show({ removed: id }, () => `Removed SSH key ${id}.`);
    });

  return root;
}

function describeApiError(error: ApiError): string {
  const d = error.details;
  let text = `${error.message} (${error.code}, HTTP ${error.status})`;
  if (error.code === 'INSUFFICIENT_CREDITS') {
    text += `\nRequired: $${d.required} ${d.currency}; available: $${d.available} ${d.currency}.`;
  }
  const fieldErrors = d.fields as Record<string, string[]> | undefined;
  if (fieldErrors && typeof fieldErrors === 'object') {
    for (const [name, messages] of Object.entries(fieldErrors)) {
      text += `\n  ${name || 'body'}: ${messages.join('; ')}`;
    }
  }
  if (error.status === 401) text += '\nRun `rentgpu login` with a valid key, or pass --api-key.';
  return text;
}

/** Runs one command line (argv without node and script); answers the exit code. */
export async function run(args: string[], io: Io): Promise<number> {
  const result = { exitCode: EXIT.ok as number };
  try {
    await program(io, result).parseAsync(args, { from: 'user' });
    return result.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof NotLoggedIn) {
      io.err('rentgpu: no API key. Run `rentgpu login`, set RENTGPU_API_KEY or pass --api-key.\n');
      return EXIT.auth;
    }
    if (error instanceof CommandError) {
      io.err(`rentgpu: ${error.message}\n`);
      return EXIT.api;
    }
    if (error instanceof UsageError) {
      io.err(`rentgpu: ${error.message}\n`);
      return EXIT.usage;
    }
    if (error instanceof NetworkError) {
      io.err(`rentgpu: ${error.message}\n`);
      return EXIT.network;
    }
    if (error instanceof ApiError) {
      io.err(`rentgpu: ${describeApiError(error)}\n`);
      return error.status === 401 || error.status === 403 ? EXIT.auth : EXIT.api;
    }
    io.err(`rentgpu: ${(error as Error).message}\n`);
    return EXIT.api;
  }
}

/** The process's own input and output. */
export function processIo(): Io {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    isTTY: Boolean(process.stdout.isTTY),
    env: process.env,
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
    prompt: (question) =>
      new Promise((resolve) => {
        const rl = createInterface({
          input: process.stdin,
          output: process.stderr,
          terminal: false,
        });
        process.stderr.write(question);
        let answered = false;
        rl.once('line', (line) => {
          answered = true;
          rl.close();
          resolve(line);
        });
        rl.once('close', () => {
          if (!answered) resolve('');
        });
      }),
  };
}
