import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PublicGpuListing, PublicInstance } from '../shared/contracts/public-api';
import { run } from './main';
import { readLine } from './process-io';
import { captureIo, type StubApi, startStubApi } from './test/harness';
import { localTime, relative } from './time';

/**
 * The CLI's commands through `run`, against a stub of the public API on a port: each test
 * says what the stub answers and reads what the CLI asked and printed.
 */
type Handler = (req: IncomingMessage, body: string) => { status?: number; json: unknown };
let handler: Handler = () => ({ status: 404, json: {} });
const seen: StubApi['seen'] = [];
let api: StubApi;
let apiUrl: string;

beforeAll(async () => {
  api = await startStubApi((req, body) => handler(req, body), seen);
  apiUrl = api.url;
});
afterAll(() => api.close());
afterEach(() => {
  seen.length = 0;
  ran.length = 0;
});
/** What the CLI ran (the system ssh), each as its command and arguments. */
const ran: string[][] = [];

async function rentgpu(args: string[], options: { tty?: boolean } = {}) {
  const { io, stdout, stderr } = captureIo(
    { apiUrl },
    {
      exec: async (command, args) => {
        ran.push([command, ...args]);
        return 0;
      },
      isTTY: options.tty ?? false,
      pollMs: 5,
    },
  );
  const code = await run(args, io);
  return { code, stdout: stdout(), stderr: stderr() };
}

function instance(changes: Partial<PublicInstance> = {}): PublicInstance {
  return {
    id: 12,
    status: 'provisioning',
    sshHost: null,
    sshPort: null,
    sshUsername: 'ubuntu',
    estimatedStartTime: null,
    gpuListingId: 3,
    gpuModel: 'A100',
    location: 'Mumbai',
    kind: 'vm',
    image: null,
    imageDigest: null,
    billingPlan: 'metered',
    hourlyRate: '2.00',
    durationHours: null,
    createdAt: new Date().toISOString(),
    endsAt: null,
    endedAt: null,
    actions: ['terminate'],
    provisioningStep: null,
    sshHostKeyFingerprint: null,
    sshHostKey: null,
    failureReason: null,
    stopAt: null,
    terminateAt: null,
    idleStopMinutes: 0,
    idleThresholdPercent: 5,
    idleStopAt: null,
    idleWarnedAt: null,
    computeChargeNote: null,
    hostStatus: 'online',
    hostOfflineSince: null,
    ...changes,
  };
}

/** The instance moves through `states` one read at a time, then stays in the last. */
function instanceGoingThrough(first: PublicInstance['status'], states: PublicInstance['status'][]) {
  let reads = 0;
  handler = (req) => {
    if (req.method !== 'GET')
      return { status: 201, json: { instance: instance({ status: first }) } };
    const status = states[Math.min(reads++, states.length - 1)] ?? first;
    const running = status === 'running';
    return {
      json: {
        instance: instance({
          status,
          ...(running ? { sshHost: 'h.example', sshPort: 22022 } : {}),
        }),
      },
    };
  };
}

describe('--wait', () => {
  it('create --wait reads the instance until it runs, then exits 0 with it', async () => {
    instanceGoingThrough('provisioning', ['provisioning', 'running']);
    const res = await rentgpu(['instances', 'create', '3', '--wait']);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).instance).toMatchObject({ id: 12, status: 'running' });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/instances',
      'GET /api/v1/instances/12',
      'GET /api/v1/instances/12',
    ]);
  });

  it('prints a launch warning (NO_SSH_KEY) to stderr and keeps it in the JSON', async () => {
    const warning = { code: 'NO_SSH_KEY', message: 'Your account has no SSH key.' };
    handler = () => ({ status: 201, json: { instance: instance({}), warnings: [warning] } });
    const res = await rentgpu(['instances', 'create', '3']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toBe('Warning (NO_SSH_KEY): Your account has no SSH key.\n');
    expect(JSON.parse(res.stdout).warnings).toEqual([warning]);

    handler = () => ({ status: 201, json: { instance: instance({}), warnings: [] } });
    const quiet = await rentgpu(['instances', 'create', '3']);
    expect(quiet.stderr).toBe('');
  });

  it('says each state on a terminal and prints the SSH command once running', async () => {
    instanceGoingThrough('provisioning', ['starting', 'running']);
    const res = await rentgpu(['rent', '3', '--duration', '2', '--wait'], { tty: true });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('Instance 12 is provisioning…');
    expect(res.stdout).toContain('Instance 12 is running.');
    expect(res.stdout).toContain(
      'ssh -p 22022 -o HostKeyAlias=rentgpu-12 -o CheckHostIP=no ubuntu@h.example',
    );
  });

  it('exits 1 with a clear line when the instance fails', async () => {
    instanceGoingThrough('provisioning', ['failed']);
    const res = await rentgpu(['instances', 'create', '3', '--wait']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('rentgpu: Instance 12 failed: it did not become running.\n');
    expect(res.stdout).toBe('');

    instanceGoingThrough('provisioning', ['terminated']);
    const ended = await rentgpu(['instances', 'create', '3', '--wait']);
    expect(ended.code).toBe(1);
    expect(ended.stderr).toBe('rentgpu: Instance 12 is terminated: it will not become running.\n');
  });

  it('exits 1 when --wait-timeout passes first', async () => {
    instanceGoingThrough('provisioning', ['provisioning']);
    const res = await rentgpu(['instances', 'create', '3', '--wait', '--wait-timeout', '1']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(
      'Instance 12 is still provisioning after 1 s of waiting to be running (--wait-timeout).',
    );
  });

  it('stop --wait ends at stopped (or terminated, a booked rental); start --wait at running', async () => {
    instanceGoingThrough('stopping', ['stopping', 'stopped']);
    const stop = await rentgpu(['instances', 'stop', '12', '--wait']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(JSON.parse(stop.stdout).instance.status).toBe('stopped');
    expect(seen[0]).toMatchObject({ method: 'PATCH', url: '/api/v1/instances/12/stop' });

    instanceGoingThrough('terminating', ['terminated']);
    expect((await rentgpu(['instances', 'stop', '12', '--wait'])).code).toBe(0);

    instanceGoingThrough('starting', ['starting', 'running']);
    const start = await rentgpu(['instances', 'start', '12', '--wait']);
    expect(start.code, start.stderr).toBe(0);
    expect(JSON.parse(start.stdout).instance.status).toBe('running');

    instanceGoingThrough('starting', ['failed']);
    expect((await rentgpu(['instances', 'start', '12', '--wait'])).code).toBe(1);
  });

  it('terminate --wait ends at terminated, through terminating; a failure is exit 1', async () => {
    instanceGoingThrough('terminating', ['terminating', 'terminated']);
    const res = await rentgpu(['instances', 'terminate', '12', '--wait'], { tty: true });
    expect(res.code, res.stderr).toBe(0);
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'DELETE /api/v1/instances/12',
      'GET /api/v1/instances/12',
      'GET /api/v1/instances/12',
    ]);
    expect(res.stderr).toContain('Instance 12 is terminating…');
    expect(res.stdout).toContain('Instance 12 is terminated.');

    instanceGoingThrough('terminating', ['failed']);
    const failed = await rentgpu(['instances', 'terminate', '12', '--wait']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe('rentgpu: Instance 12 failed: it did not become terminated.\n');

    // Without --wait it answers at once, as before.
    seen.length = 0;
    instanceGoingThrough('terminating', ['terminated']);
    const once = await rentgpu(['instances', 'terminate', '12']);
    expect(JSON.parse(once.stdout).instance.status).toBe('terminating');
    expect(seen).toHaveLength(1);
    const help = await rentgpu(['instances', 'terminate', '--help']);
    expect(help.stdout).toContain('--wait');
  });

  it('creates a container with --kind and --image, and shows its image and digest', async () => {
    const image = 'pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime';
    const digest = `sha256:${'c'.repeat(64)}`;
    handler = () => ({
      status: 201,
      json: { instance: instance({ kind: 'container', image, sshUsername: 'root' }), warnings: [] },
    });
    const res = await rentgpu(
      ['instances', 'create', '3', '--kind', 'container', '--image', image],
      {
        tty: true,
      },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(seen[0]?.body ?? '{}')).toEqual({
      gpuListingId: 3,
      kind: 'container',
      image,
    });
    expect(res.stdout).toMatch(/Kind +container/);
    expect(res.stdout).toMatch(new RegExp(`Image +${image}`));
    expect(res.stdout).toMatch(/Digest +not resolved yet/);

    handler = () => ({
      json: { instance: instance({ kind: 'container', image, imageDigest: digest }) },
    });
    const got = await rentgpu(['instances', 'get', '12'], { tty: true });
    expect(got.stdout).toContain(digest);
    handler = () => ({
      json: { instances: [instance({ kind: 'container', image })], nextCursor: null },
    });
    expect((await rentgpu(['instances', 'list'], { tty: true })).stdout).toContain('container');

    // A VM shows its kind and nothing of images.
    handler = () => ({ json: { instance: instance({}) } });
    const vm = await rentgpu(['instances', 'get', '12'], { tty: true });
    expect(vm.stdout).toMatch(/Kind +vm/);
    expect(vm.stdout).not.toContain('Image');

    const wrong = await rentgpu(['instances', 'create', '3', '--kind', 'lxc']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('--kind');
    const imageAlone = await rentgpu(['instances', 'create', '3', '--image', image]);
    expect(imageAlone.code).not.toBe(0);
    expect(imageAlone.stderr).toContain('--kind container');
  });

  it('without --wait answers at once, as before', async () => {
    instanceGoingThrough('provisioning', ['running']);
    const res = await rentgpu(['instances', 'create', '3']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).instance.status).toBe('provisioning');
    expect(seen).toHaveLength(1);
  });
});

describe('what a terminal shows', () => {
  it('says compute is not charged until the instance is ready (issue 39)', async () => {
    handler = () => ({
      json: {
        instance: instance({
          status: 'provisioning',
          computeChargeNote: 'provisioning — not charged',
        }),
      },
    });
    const provisioning = await rentgpu(['instances', 'get', '12'], { tty: true });
    expect(provisioning.stdout).toMatch(/Charges +provisioning — not charged/);
    handler = () => ({ json: { instance: instance({ status: 'running' }) } });
    const running = await rentgpu(['instances', 'get', '12'], { tty: true });
    expect(running.stdout).not.toContain('Charges');
  });

  it('times are local with how long ago; --json keeps the API text', async () => {
    const createdAt = new Date(Date.now() - 3 * 60_000 - 5_000).toISOString();
    handler = () => ({ json: { instance: instance({ status: 'running', createdAt }) } });
    const human = await rentgpu(['instances', 'get', '12'], { tty: true });
    expect(human.stdout).toContain(`Created  ${localTime(createdAt)}`);
    expect(human.stdout).toContain('(3 min ago)');
    expect(human.stdout).not.toContain(createdAt);
    const json = await rentgpu(['instances', 'get', '12', '--json'], { tty: true });
    expect(JSON.parse(json.stdout).instance.createdAt).toBe(createdAt);
  });

  it('localTime: the local zone, to the minute, relative to now', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    try {
      const now = Date.parse('2026-11-26T17:05:00Z');
      expect(localTime('2026-11-26T17:02:00Z', now)).toBe('2026-11-26 22:32 (3 min ago)');
      expect(localTime('2026-11-26T19:05:00Z', now)).toBe('2026-11-27 00:35 (in 2 h)');
      expect(localTime(null, now)).toBeNull();
    } finally {
      process.env.TZ = tz;
    }
    expect(relative(-10_000)).toBe('just now');
    expect(relative(-3 * 86_400_000)).toBe('3 days ago');
  });

  it('no SSH command unless running', async () => {
    for (const status of ['stopped', 'terminated', 'failed'] as const) {
      // A port the server still had stored: not shown, it may be someone else's by now.
      handler = () => ({
        json: { instance: instance({ status, sshHost: 'h.example', sshPort: 22022 }) },
      });
      const one = await rentgpu(['instances', 'get', '12'], { tty: true });
      expect(one.stdout).not.toContain('22022');
      expect(one.stdout).toContain(`SSH      none (the instance is ${status})`);
      handler = () => ({
        json: {
          instances: [instance({ status, sshHost: 'h.example', sshPort: 22022 })],
          nextCursor: null,
        },
      });
      const list = await rentgpu(['instances', 'list'], { tty: true });
      expect(list.stdout).not.toContain('22022');
    }
    handler = () => ({
      json: { instance: instance({ status: 'running', sshHost: 'h.example', sshPort: 22022 }) },
    });
    const running = await rentgpu(['instances', 'get', '12'], { tty: true });
    expect(running.stdout).toContain(
      'SSH      ssh -p 22022 -o HostKeyAlias=rentgpu-12 -o CheckHostIP=no ubuntu@h.example',
    );
  });

  it('gpus list asks for the cheapest first, with --model too, and shows reliability and the GPU share', async () => {
    const listing: PublicGpuListing = {
      id: 3,
      model: 'A100 80GB',
      memory: '80GB',
      cudaCores: null,
      location: 'Mumbai',
      hourlyRate: '2.00',
      dailyRate: '48.00',
      availableCount: 2,
      provider: { name: 'Acme', reputation: '4.8' },
      gpuShare: { vcpus: 8, memoryGb: 25.5 },
      kinds: ['vm', 'container'],
      gpuCount: 1,
      gpuMemoryGb: 80,
      pricePerGpuHour: '2.00',
      diskGb: 500,
      driverVersion: '550.54.15',
      cudaVersion: '12.4',
      reliability: { uptimePercent: 99.4, windowDays: 30, observedDays: 30 },
    };
    handler = () => ({ json: { gpus: [listing], nextCursor: null } });
    const plain = await rentgpu(['gpus', 'list'], { tty: true });
    const model = await rentgpu(['gpus', 'list', '--model', 'a100']);
    const sorted = await rentgpu(['list', '--sort', 'memory']);
    const filtered = await rentgpu([
      'gpus',
      'list',
      '--gpus',
      '1',
      '--min-vram',
      '80',
      '--min-reliability',
      '99',
      '--max-gpu-price',
      '2.5',
      '--sort',
      'gpu-price-asc',
    ]);
    expect(seen.map((r) => new URL(r.url, apiUrl).searchParams.toString())).toEqual([
      'sort=price-asc',
      'model=a100&sort=price-asc',
      'sort=memory',
      'sort=gpu-price-asc&gpuCount=1&minVramGb=80&minReliability=99&maxGpuHourPrice=2.5',
    ]);
    expect(filtered.code).toBe(0);
    expect(plain.stdout.split('\n')[0]).toMatch(/\$\/HOUR +\$\/GPU-HOUR .*RELIABILITY +PROVIDER$/);
    expect(plain.stdout).not.toContain('HOST');
    // The host's measured uptime, not the provider's rating.
    expect(plain.stdout).toMatch(/2\.00 +2\.00 .*99\.4% \(30 d\) +Acme/);
    // One GPU's share of its host, shown before renting, and the machine's disk and CUDA.
    expect(plain.stdout.split('\n')[0]).toMatch(
      /MEMORY +VCPUS\/GPU +RAM\/GPU +GPUS +DISK +CUDA +LOCATION/,
    );
    expect(plain.stdout).toMatch(/80GB +8 +25\.5 GB +1 +500 GB +12\.4 +Mumbai/);
    expect(model.code).toBe(0);
    expect(sorted.code).toBe(0);

    // A server whose listings carry the host's status: a column of its own.
    handler = () => ({ json: { gpus: [{ ...listing, hostStatus: 'offline' }], nextCursor: null } });
    const withHost = await rentgpu(['gpus', 'list'], { tty: true });
    expect(withHost.stdout.split('\n')[0]).toContain('HOST');
    expect(withHost.stdout).toMatch(/offline +99\.4% \(30 d\)/);
    // Too little history says so; an older server's rows show the rating as before.
    handler = () => ({
      json: {
        gpus: [
          { ...listing, reliability: { uptimePercent: null, windowDays: 30, observedDays: 1 } },
        ],
        nextCursor: null,
      },
    });
    expect((await rentgpu(['gpus', 'list'], { tty: true })).stdout).toMatch(/new +Acme/);
    const { reliability: _r, ...older } = listing;
    handler = () => ({ json: { gpus: [older], nextCursor: null } });
    expect((await rentgpu(['gpus', 'list'], { tty: true })).stdout).toMatch(/4\.8 +Acme/);
  });
});

describe('instances ssh', () => {
  const running = () => ({
    json: { instance: instance({ status: 'running', sshHost: 'h.example', sshPort: 22022 }) },
  });
  const base = ['-l', 'ubuntu', '-p', '22022', '-o', 'HostKeyAlias=rentgpu-12'];
  const sshOf = async (...extra: string[]) => {
    ran.length = 0;
    const res = await rentgpu(['instances', 'ssh', '12', ...extra]);
    expect(res.code, res.stderr).toBe(0);
    expect(ran).toHaveLength(1);
    return ran[0]?.slice(1) ?? [];
  };

  it('passes the options after -- to ssh (-i KEY included) and the rest as the remote command', async () => {
    handler = running;
    const pinned = [...base, '-o', 'CheckHostIP=no'];
    expect(await sshOf()).toEqual([...pinned, '--', 'h.example']);
    // Options alone: the key, a tunnel, flags with no value.
    expect(await sshOf('--', '-i', '/keys/gpu')).toEqual([
      ...pinned,
      '-i',
      '/keys/gpu',
      '--',
      'h.example',
    ]);
    expect(await sshOf('--', '-i', '/keys/gpu', '-L', '8888:localhost:8888', '-N')).toEqual([
      ...pinned,
      '-i',
      '/keys/gpu',
      '-L',
      '8888:localhost:8888',
      '-N',
      '--',
      'h.example',
    ]);
    // Options, then the command: the first word that is not an option starts it, and what
    // follows it (even -L) is the command's.
    expect(await sshOf('--', '-i', '/keys/gpu', 'nvidia-smi', '-L')).toEqual([
      ...pinned,
      '-i',
      '/keys/gpu',
      '--',
      'h.example',
      'nvidia-smi',
      '-L',
    ]);
    // Clusters as ssh's getopt reads them: -vvi KEY takes KEY, -iKEY and -oName=value are one word.
    expect(await sshOf('--', '-vvi', '/k', '-i/k2', '-oServerAliveInterval=30', 'uptime')).toEqual([
      ...pinned,
      '-vvi',
      '/k',
      '-i/k2',
      '-oServerAliveInterval=30',
      '--',
      'h.example',
      'uptime',
    ]);
    // A command alone, as before; a second -- ends the options (a command starting with -).
    expect(await sshOf('--', 'nvidia-smi', '-L')).toEqual([
      ...pinned,
      '--',
      'h.example',
      'nvidia-smi',
      '-L',
    ]);
    expect(await sshOf('--', '-t', '--', '-weird', 'x')).toEqual([
      ...pinned,
      '-t',
      '--',
      'h.example',
      '-weird',
      'x',
    ]);
    expect(await sshOf('uptime')).toEqual([...pinned, '--', 'h.example', 'uptime']);
  });

  it('refuses an ssh option left without its value (exit 2); --print shows the same words', async () => {
    handler = running;
    const res = await rentgpu(['instances', 'ssh', '12', '--', '-i']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("ssh's option -i needs a value.");
    expect(ran).toHaveLength(0);
    const printed = await rentgpu(['instances', 'ssh', '12', '--print', '--', '-i', '/k', 'ls']);
    expect(JSON.parse(printed.stdout).command).toEqual([
      'ssh',
      ...base,
      '-o',
      'CheckHostIP=no',
      '-i',
      '/k',
      '--',
      'h.example',
      'ls',
    ]);
  });

  it('says in its help how the words after -- are read', async () => {
    const help = await rentgpu(['instances', 'ssh', '--help']);
    expect(help.stdout).toContain('after --: options for ssh (e.g. -i KEY');
    expect(help.stdout).toContain('rentgpu instances ssh 42 -- -i ~/.ssh/gpu_key nvidia-smi -L');
    expect(help.stdout).toContain('HostKeyAlias');
  });
});

describe('login and credits', () => {
  it('asks for the key only at a terminal: piped input prints no prompt', async () => {
    const piped = new PassThrough();
    const out = new PassThrough();
    let written = '';
    out.on('data', (chunk) => {
      written += chunk;
    });
    const line = readLine(piped, out, 'API key: ');
    piped.end('rgpu_abc\n');
    expect(await line).toBe('rgpu_abc');
    expect(written).toBe('');

    const tty = Object.assign(new PassThrough(), { isTTY: true });
    const asked = readLine(tty, out, 'API key: ');
    tty.end('rgpu_def\n');
    expect(await asked).toBe('rgpu_def');
    expect(written).toBe('API key: ');
  });

  it('account credits on the built-in sandbox says so and creates nothing', async () => {
    handler = () => ({ json: { paymentsSandbox: true } });
    const res = await rentgpu(['account', 'credits', '15']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('This server runs the built-in PayPal sandbox');
    expect(res.stderr).toContain('no order was created');
    expect(seen.map((r) => r.method)).toEqual(['GET']);

    seen.length = 0;
    handler = (req) =>
      req.method === 'GET'
        ? { json: { paymentsSandbox: false } }
        : {
            status: 201,
            json: {
              order: { id: 'o1', amount: '15.00', currency: 'USD', credits: '15.00' },
              approvalUrl: 'https://paypal.example/approve',
              message: 'Open approvalUrl',
            },
          };
    const paid = await rentgpu(['account', 'credits', '15']);
    expect(paid.code, paid.stderr).toBe(0);
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/v1/account',
      'POST /api/v1/account/credits',
    ]);
  });
});
