import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { instances } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/app';
import { bundleCli, cliTempFolders, REPO_ROOT, removeCliBundle } from '../../test/cli';
import { world } from '../../test/world';

/**
 * The rentgpu CLI as a real child process against the app on a port: the `bin` entry
 * (bin/rentgpu.mjs, TypeScript through tsx, as `npx rentgpu` runs it) for the first flow, and
 * for the rest the same sources bundled once by esbuild (a tsx start costs seconds a call).
 */
const root = REPO_ROOT;
const binEntry = path.join(root, 'bin', 'rentgpu.mjs');
let bin = binEntry;
let bundled = binEntry;

let t: TestApp;
let apiUrl: string;
beforeAll(async () => {
  bundled = await bundleCli();
  bin = bundled;
  t = await createTestApp({ env: { DEMO_PROVISIONING_DELAY_MS: '20000' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  folders.removeAll();
  removeCliBundle(bundled);
});

/** Each CLI run's own config folder (its HOME) and the like, removed after the file's tests. */
const folders = cliTempFolders();
afterEach(() => {
  bin = bundled;
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `rentgpu …` (async: the app answers in this process meanwhile). */
function rentgpu(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; configHome: string },
): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: options.configHome,
        XDG_CONFIG_HOME: options.configHome,
        RENTGPU_API_URL: apiUrl,
        ...options.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

async function keyFor(credits: string, permissions = ['read', 'write']) {
  const user = await t.signIn({ credits });
  const res = await t.request({
    method: 'POST',
    url: '/api/auth/api-keys',
    cookie: user.cookie,
    payload: { name: 'cli', permissions },
  });
  return { ...user, key: res.json().key as string };
}

describe('the rentgpu CLI', () => {
  it('login (stdin), whoami, list, rent, status, stop, logout', async () => {
    // `login` runs through the bin entry itself (what `npx rentgpu` starts); the rest of the
    // flow and every other test through the bundle of the same sources.
    bin = binEntry;
    const configHome = folders.make();
    const me = await keyFor('50.00');
    const listing = await world(t).listing({ model: 'A100', hourlyRate: '2.00', totalCount: 3 });

    const login = await rentgpu(['login'], { configHome, stdin: `${me.key}\n` });
    // A piped key: no prompt is printed (the question is only for a terminal).
    expect(login.stderr).not.toContain('API key: ');
    expect(login.code).toBe(0);
    bin = bundled;
    expect(JSON.parse(login.stdout)).toMatchObject({ loggedIn: true });
    const file = path.join(configHome, 'rentgpu', 'config.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ apiKey: me.key });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const whoami = await rentgpu(['whoami', '--json'], { configHome });
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ id: me.userId, balance: '50.00' });

    const list = await rentgpu(['list', '--limit', '100'], { configHome });
    expect(list.code).toBe(0);
    const gpus = JSON.parse(list.stdout).gpus as { id: number; model: string }[];
    expect(gpus.find((g) => g.id === listing.id)?.model).toBe('A100');

    const rent = await rentgpu(['rent', String(listing.id), '--duration', '2'], { configHome });
    expect(rent.code, rent.stderr).toBe(0);
    const { instance } = JSON.parse(rent.stdout);
    expect(instance).toMatchObject({
      status: 'provisioning',
      billingPlan: 'booked',
      durationHours: 2,
    });
    expect(instance).toHaveProperty('estimatedStartTime');

    const status = await rentgpu(['status'], { configHome });
    expect(JSON.parse(status.stdout).instances.map((i: { id: number }) => i.id)).toEqual([
      instance.id,
    ]);
    const one = await rentgpu(['status', String(instance.id)], { configHome });
    expect(JSON.parse(one.stdout).instance.id).toBe(instance.id);

    const stop = await rentgpu(['instances', 'stop', String(instance.id)], { configHome });
    expect(stop.code).toBe(0);
    expect(['terminating', 'terminated']).toContain(JSON.parse(stop.stdout).instance.status);

    const balance = await rentgpu(['account', 'balance'], { configHome });
    expect(JSON.parse(balance.stdout).balance).toBe('50.00');

    const logout = await rentgpu(['logout'], { configHome });
    expect(logout.code).toBe(0);
    const after = await rentgpu(['whoami'], { configHome });
    expect(after.code).toBe(3);
    expect(after.stderr).toContain('rentgpu login');
  }, 120_000);

  it('the key comes from --api-key, then RENTGPU_API_KEY; a bad one exits 3 and stores nothing', async () => {
    const configHome = folders.make();
    const me = await keyFor('10.00');
    const byEnv = await rentgpu(['whoami'], { configHome, env: { RENTGPU_API_KEY: me.key } });
    expect(JSON.parse(byEnv.stdout).id).toBe(me.userId);
    const byFlag = await rentgpu(['--api-key', 'rgpu_wrong', 'whoami'], {
      configHome,
      env: { RENTGPU_API_KEY: me.key },
    });
    expect(byFlag.code).toBe(3);
    expect(byFlag.stderr).toContain('UNAUTHENTICATED, HTTP 401');
    const login = await rentgpu(['login'], { configHome, stdin: 'rgpu_wrong\n' });
    expect(login.code).toBe(3);
    expect(() => statSync(path.join(configHome, 'rentgpu', 'config.json'))).toThrow();
  }, 60_000);

  it('--explain prints the request with the key redacted and sends nothing', async () => {
    const configHome = folders.make();
    const me = await keyFor('50.00');
    const listing = await world(t).listing();
    const explained = await rentgpu(['--explain', 'rent', String(listing.id), '--duration', '3'], {
      configHome,
      env: { RENTGPU_API_KEY: me.key },
    });
    expect(explained.code).toBe(0);
    expect(explained.stdout).toBe('');
    expect(explained.stderr).toContain(`POST ${apiUrl}/api/v1/instances`);
    expect(explained.stderr).toContain('authorization: Bearer rgpu_');
    expect(explained.stderr).toContain('(redacted)');
    expect(explained.stderr).not.toContain(me.key);
    expect(explained.stderr).toMatch(/idempotency-key: [0-9a-f-]{36}/);
    expect(JSON.parse(explained.stderr.slice(explained.stderr.indexOf('{')))).toEqual({
      gpuListingId: listing.id,
      durationHours: 3,
    });
    // The documentation's spelling, `rent <gpu-id> --hours N`, is the same request.
    const hours = await rentgpu(['--explain', 'rent', String(listing.id), '--hours', '4'], {
      configHome,
      env: { RENTGPU_API_KEY: me.key },
    });
    expect(hours.code, hours.stderr).toBe(0);
    expect(JSON.parse(hours.stderr.slice(hours.stderr.indexOf('{')))).toEqual({
      gpuListingId: listing.id,
      durationHours: 4,
    });
    const rows = await t.database.db
      .select()
      .from(instances)
      .where(eq(instances.userId, me.userId));
    expect(rows).toEqual([]);
  }, 60_000);

  it('a refused call exits 1 with the message, code and details; bad usage exits 2', async () => {
    const configHome = folders.make();
    const me = await keyFor('1.00');
    const listing = await world(t).listing({ hourlyRate: '5.00' });
    const env = { RENTGPU_API_KEY: me.key };
    const poor = await rentgpu(['rent', String(listing.id), '--duration', '2'], {
      configHome,
      env,
    });
    expect(poor.code).toBe(1);
    expect(poor.stderr).toContain('INSUFFICIENT_CREDITS, HTTP 402');
    expect(poor.stderr).toContain('Required: $12.50 USD; available: $1.00 USD.');
    const usage = await rentgpu(['rent', String(listing.id)], { configHome, env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("required option '--duration <hours>' not specified");
    const missing = await rentgpu(['instances', 'get', '999999'], { configHome, env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NOT_FOUND');
    const down = await rentgpu(['whoami'], {
      configHome,
      env: { ...env, RENTGPU_API_URL: 'http://127.0.0.1:9' },
    });
    expect(down.code).toBe(4);
  }, 60_000);

  it('instances ssh: --print, the system ssh run with its exit code, refused until running or when the address is hostile', async () => {
    const configHome = folders.make();
    const me = await keyFor('50.00');
    const env = { RENTGPU_API_KEY: me.key };
    const listing = await world(t).listing({ hourlyRate: '1.00' });
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/instances',
      headers: { authorization: `Bearer ${me.key}` },
      payload: { gpuListingId: listing.id },
    });
    const id = created.json().instance.id as number;

    const early = await rentgpu(['instances', 'ssh', String(id), '--print'], { configHome, env });
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(
      `Instance ${id} is provisioning: SSH works only while it is running.`,
    );
    expect(early.stdout).toBe('');

    // The demo host reports it ready.
    t.clock.advance(21_000);
    await t.app.deps.worker.runOnce(t.clock.now());
    const { instance } = (
      await t.request({
        method: 'GET',
        url: `/api/v1/instances/${id}`,
        headers: { authorization: `Bearer ${me.key}` },
      })
    ).json();
    expect(instance.status).toBe('running');
    const port = String(instance.sshPort);

    const printed = await rentgpu(['instances', 'ssh', String(id), '--print', '--json'], {
      configHome,
      env,
    });
    expect(printed.code, printed.stderr).toBe(0);
    // The user after -l and the host after --: neither can be an ssh option. The host key is
    // filed under the instance, not the host's port (which another instance had before).
    const alias = ['-o', `HostKeyAlias=rentgpu-${id}`, '-o', 'CheckHostIP=no'];
    expect(JSON.parse(printed.stdout)).toEqual({
      command: ['ssh', '-l', instance.sshUsername, '-p', port, ...alias, '--', instance.sshHost],
    });

    // With the guest's host key stored (the agent's probe saw it), ssh checks that key: pinned
    // in the CLI's own known_hosts under the instance's name, no trust on first use.
    const hostKey =
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';
    await t.database.db.update(instances).set({ sshHostKey: hostKey }).where(eq(instances.id, id));
    const pinned = await rentgpu(['instances', 'ssh', String(id), '--print', '--json'], {
      configHome,
      env,
    });
    const knownHosts = path.join(configHome, 'rentgpu', 'known_hosts');
    expect(JSON.parse(pinned.stdout)).toEqual({
      command: [
        'ssh',
        '-l',
        instance.sshUsername,
        '-p',
        port,
        ...alias,
        '-o',
        `UserKnownHostsFile=${knownHosts}`,
        '-o',
        'StrictHostKeyChecking=yes',
        '--',
        instance.sshHost,
      ],
    });
    expect(readFileSync(knownHosts, 'utf8')).toBe(`rentgpu-${id} ${hostKey}\n`);
    expect(statSync(knownHosts).mode & 0o777).toBe(0o600);
    await t.database.db.update(instances).set({ sshHostKey: null }).where(eq(instances.id, id));

    // A stand-in ssh on PATH: the CLI runs it on this terminal and exits with its code.
    const bin = folders.make('rentgpu-ssh-');
    writeFileSync(path.join(bin, 'ssh'), '#!/bin/sh\necho "ssh $*"\nexit 7\n');
    chmodSync(path.join(bin, 'ssh'), 0o755);
    const ran = await rentgpu(['instances', 'ssh', String(id), '--', 'nvidia-smi', '-L'], {
      configHome,
      env: { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    expect(ran.code).toBe(7);
    const pin = `-o HostKeyAlias=rentgpu-${id} -o CheckHostIP=no`;
    expect(ran.stdout).toBe(
      `ssh -l ${instance.sshUsername} -p ${port} ${pin} -- ${instance.sshHost} nvidia-smi -L\n`,
    );
    // ssh's own options first (the help's "more arguments for ssh"), then the remote command.
    const keyed = await rentgpu(
      ['instances', 'ssh', String(id), '--', '-i', '/keys/gpu', 'nvidia-smi', '-L'],
      { configHome, env: { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` } },
    );
    expect(keyed.code).toBe(7);
    expect(keyed.stdout).toBe(
      `ssh -l ${instance.sshUsername} -p ${port} ${pin} -i /keys/gpu -- ${instance.sshHost} nvidia-smi -L\n`,
    );

    // Hostile values a provider's host got stored: the stand-in ssh writes the arguments it
    // got, one per line, and a marker file shows whether a smuggled command ran.
    const marker = path.join(bin, 'pwned');
    const argsFile = path.join(bin, 'args');
    writeFileSync(
      path.join(bin, 'ssh'),
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nexit 0\n`,
    );
    const withPath = { ...env, PATH: `${bin}:${process.env.PATH ?? ''}` };
    const storeAddress = (sshUsername: string, sshHost: string) =>
      t.database.db.update(instances).set({ sshUsername, sshHost }).where(eq(instances.id, id));

    // A user that would be an ssh option (and a shell command in ProxyCommand): refused,
    // nothing spawned, also with --print.
    await storeAddress(`-oProxyCommand=touch ${marker};#`, 'h.example');
    for (const extra of [['--', 'uname'], ['--print']]) {
      const refused = await rentgpu(['instances', 'ssh', String(id), ...extra], {
        configHome,
        env: withPath,
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `Instance ${id} has an SSH address that is not safe to use, so ssh was not run. The SSH user starts with "-".`,
      );
      expect(refused.stdout).toBe('');
    }
    await storeAddress('ubuntu', 'h.example; touch pwned');
    const spaced = await rentgpu(['instances', 'ssh', String(id), '--', 'uname'], {
      configHome,
      env: withPath,
    });
    expect(spaced.code).toBe(1);
    expect(spaced.stderr).toContain('The SSH host contains whitespace or control characters.');
    expect(() => statSync(argsFile)).toThrow();

    // A host full of shell syntax is only a word after --: ssh gets it as the destination.
    await storeAddress('ubuntu', 'h.example;id;#');
    const odd = await rentgpu(['instances', 'ssh', String(id), '--', 'uname'], {
      configHome,
      env: withPath,
    });
    expect(odd.code, odd.stderr).toBe(0);
    expect(readFileSync(argsFile, 'utf8')).toBe(
      ['-l', 'ubuntu', '-p', port, ...alias, '--', 'h.example;id;#', 'uname', ''].join('\n'),
    );
    expect(() => statSync(marker)).toThrow();

    const usage = await rentgpu(['instances', 'usage', String(id)], { configHome, env });
    expect(JSON.parse(usage.stdout).usage).toMatchObject({
      instanceId: id,
      billingPlan: 'metered',
    });
    const csv = await rentgpu(['instances', 'invoice', String(id), '--csv'], { configHome, env });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'invoice,instance_id,description,quantity,unit,unit_price,amount,currency',
    );
    expect(csv.stdout).toContain(`INV-${id},${id},Total,`);
  }, 120_000);

  it('templates list --json; instances create --template; account credits', async () => {
    const configHome = folders.make();
    const me = await keyFor('50.00');
    const env = { RENTGPU_API_KEY: me.key };
    const list = await rentgpu(['templates', 'list', '--json'], { configHome, env });
    expect(list.code, list.stderr).toBe(0);
    const { templates } = JSON.parse(list.stdout);
    expect(templates.map((x: { id: string }) => x.id)).toContain('pytorch');
    expect(templates.find((x: { id: string }) => x.id === 'windows11')).toMatchObject({
      kind: 'image',
      available: false,
    });

    const listing = await world(t).listing();
    const create = await rentgpu(
      ['instances', 'create', String(listing.id), '--template', 'ollama'],
      { configHome, env },
    );
    expect(create.code, create.stderr).toBe(0);
    const [row] = await t.database.db
      .select()
      .from(instances)
      .where(eq(instances.id, JSON.parse(create.stdout).instance.id));
    expect(row?.template).toBe('ollama');
    const wrong = await rentgpu(['instances', 'create', String(listing.id), '--template', 'nope'], {
      configHome,
      env,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('VALIDATION_FAILED, HTTP 400');
    expect(wrong.stderr).toContain('template: Choose one of the templates');

    // The test app runs the built-in PayPal sandbox: the CLI says so and creates no order.
    const account = await rentgpu(['whoami', '--json'], { configHome, env });
    expect(JSON.parse(account.stdout).paymentsSandbox).toBe(true);
    const credits = await rentgpu(['account', 'credits', '15'], { configHome, env });
    expect(credits.code).toBe(1);
    expect(credits.stderr).toContain(
      'This server runs the built-in PayPal sandbox (no PayPal credentials): it has no PayPal page to approve a payment, so no order was created.',
    );
    expect(credits.stdout).toBe('');
  }, 120_000);

  it('a changing call retried after a 503 sends the same Idempotency-Key', async () => {
    const configHome = folders.make();
    const keys: string[] = [];
    const flaky = createServer((req, res) => {
      keys.push(String(req.headers['idempotency-key']));
      res.setHeader('content-type', 'application/json');
      if (keys.length === 1) {
        res.statusCode = 503;
        res.end(
          JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'busy', details: {} } }),
        );
        return;
      }
      res.statusCode = 200;
      res.end(JSON.stringify({ instance: { id: 7, status: 'stopping' } }));
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const port = (flaky.address() as AddressInfo).port;
    try {
      const res = await rentgpu(['instances', 'stop', '7'], {
        configHome,
        env: { RENTGPU_API_KEY: 'rgpu_test', RENTGPU_API_URL: `http://127.0.0.1:${port}` },
      });
      expect(res.code, res.stderr).toBe(0);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toBe(keys[0]);
    } finally {
      flaky.close();
    }
  }, 60_000);
});
