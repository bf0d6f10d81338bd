import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_TOOLKIT_VERSION } from '../../shared/rules/host-readiness';
import { outputOf } from '../test/helpers';

/**
 * The installer (agent/install/install.sh): static, strict about its arguments, takes the
 * token on standard input (never as an argument), refuses an agent that does not match the
 * SHA-256 the server publishes, and in --prefix mode (no root, no packages, no systemctl, no
 * user) installs the agent, its 0600 configuration and token file and the hardened unit.
 * `--drivers container` (ADR 025) sets a host up for rootful Podman: its packages, the
 * `containers:` subordinate id ranges, the NVIDIA Container Toolkit's instructions, and the
 * service as root with the hardening that still fits.
 */
const run = promisify(execFile);
const INSTALLER = path.join(import.meta.dirname, 'install.sh');
const REPO_DIR = path.resolve(import.meta.dirname, '../..');
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789-XY';
/** By absolute path: the recording test's PATH holds only stand-ins. */
const BASH = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p)) ?? 'bash';
const SHELLCHECK = ['/usr/bin/shellcheck', '/usr/local/bin/shellcheck'].find((p) => existsSync(p));
const SYSTEMD_ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) =>
  existsSync(p),
);

let agentBundle: Uint8Array;
/** What the fake server publishes as the agent's checksum (null: the right one). */
let publishedSha256: string | null = null;
/** The default image the fake server's catalogue names, and the SHA-256 it publishes. */
const IMAGE = randomBytes(64 * 1024);
const IMAGE_SHA256 = createHash('sha256').update(IMAGE).digest('hex');
let imageSha256 = IMAGE_SHA256;
let server: http.Server;
let serverUrl: string;
const requested: string[] = [];
let tmp: string;

beforeAll(async () => {
  const result = await build({
    entryPoints: [path.join(REPO_DIR, 'agent/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  agentBundle = result.outputFiles[0]?.contents ?? new Uint8Array();
  server = http.createServer((req, res) => {
    requested.push(req.url ?? '');
    if (req.url === '/api/providers/agent/download-script') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(agentBundle);
    } else if (req.url === '/api/providers/agent/download-script.sha256') {
      const digest = publishedSha256 ?? createHash('sha256').update(agentBundle).digest('hex');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${digest}  rentgpu-agent.mjs\n`);
    } else if (req.url === '/api/providers/agent/images') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(catalogue()));
    } else if (req.url === '/images/ubuntu.img') {
      res.writeHead(200, { 'content-length': IMAGE.length });
      res.end(IMAGE);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tmp = await mkdtemp(path.join(os.tmpdir(), 'rentgpu-install-'));
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(tmp, { recursive: true, force: true });
});

/** Runs the installer with `stdin` as its standard input (how the token arrives). */
function installer(
  args: string[],
  stdin = `${TOKEN}\n`,
  path_ = process.env.PATH ?? '/usr/bin:/bin',
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(BASH, [INSTALLER, ...args], {
    env: { PATH: path_, HOME: tmp },
    timeout: 60_000,
  });
  const output = outputOf(child);
  child.stdin.on('error', () => {}); // a refusal may exit before reading its input
  child.stdin.end(stdin);
  return output;
}

/** As the server answers GET /api/providers/agent/images (shared/contracts/images.ts). */
const catalogue = () => [
  {
    name: 'windows-11',
    title: 'Windows 11',
    url: null,
    sha256: null,
    sizeBytes: null,
    format: 'qcow2',
    firmware: 'uefi',
  },
  {
    name: 'ubuntu-22.04',
    title: 'Ubuntu 22.04 LTS',
    url: `${serverUrl}/images/ubuntu.img`,
    sha256: imageSha256,
    sizeBytes: IMAGE.length,
    format: 'qcow2',
    firmware: 'uefi',
  },
];

const SERVER_ARGS = () => ['--server', serverUrl, '--allow-http', '--token-stdin'];

/**
 * A folder of stand-ins for every command the installer runs: each records its arguments,
 * then runs the real command. With PATH set to it alone, every command is seen.
 */
async function recordingPath(log: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmp, 'bin-'));
  const tools = [
    'curl',
    'install',
    'mkdir',
    'chmod',
    'chown',
    'uname',
    'df',
    'awk',
    'mktemp',
    'sha256sum',
    'rm',
    'mv',
    'cat',
    'dirname',
    'sort',
    'sed',
    'ss',
    'node',
    'env',
  ];
  for (const tool of tools) {
    const real = await run('bash', ['-c', `command -v ${tool} || true`]).then((r) =>
      r.stdout.trim(),
    );
    if (!real.startsWith('/')) continue;
    const stub = path.join(dir, tool);
    await writeFile(
      stub,
      // The record and its newline in one append (bash flushes its printf at a newline; the
      // NUL after it is left for the next line's start): the two sides of a pipeline
      // (`sha256sum … | awk …`) start together, and a record and its newline written in two
      // appends could be split by the other's, which then read as one command.
      `#!/bin/bash\nprintf '%s\\0' ${JSON.stringify(tool)} "$@" $'\\n' >>${JSON.stringify(log)}\nexec ${JSON.stringify(real)} "$@"\n`,
    );
    await chmod(stub, 0o755);
  }
  return dir;
}

// Each test runs the real installer (bash, sha256sum, tar): seconds on a loaded 2-core machine.
describe('the installer script', { timeout: 60_000 }, () => {
  it('is valid bash with strict mode', async () => {
    const text = await readFile(INSTALLER, 'utf8');
    expect(text.startsWith('#!/usr/bin/env bash\n')).toBe(true);
    expect(text).toMatch(/^set -euo pipefail$/m);
    await run('bash', ['-n', INSTALLER]);
    expect((await stat(INSTALLER)).mode & 0o111).not.toBe(0);
  });

  // CI installs shellcheck (.ci/run); a machine without it skips this one check.
  it.skipIf(!SHELLCHECK && !process.env.CI)('is shellcheck clean', async () => {
    if (!SHELLCHECK) throw new Error('shellcheck is not installed (CI must install it)');
    const { stdout } = await run(SHELLCHECK, ['--severity=style', INSTALLER]);
    expect(stdout).toBe('');
  });

  it.each<[string[], string]>([
    [[], '--server is required'],
    [['--server', 'https://rentgpu.example'], '--token-stdin or --token-file is required'],
    [['--server', 'https://rentgpu.example', '--token', TOKEN], 'not taken as an argument'],
    [['--server', 'https://rentgpu.example', `--token=${TOKEN}`], 'not taken as an argument'],
    [['--server', 'https://rentgpu.example/path', '--token-stdin'], '--server must be'],
    [['--server', 'https://x.example;reboot', '--token-stdin'], '--server must be'],
    [['--server', 'ftp://rentgpu.example', '--token-stdin'], '--server must be'],
    [['--server', 'http://rentgpu.example', '--token-stdin'], 'must be https://'],
    [['--server', 'https://rentgpu.example', '--token-stdin', '--bogus'], 'unknown argument'],
    [['--server', 'https://rentgpu.example', '--token-stdin', '--prefix', 'rel'], 'absolute'],
    [['--server', 'https://rentgpu.example', '--token-file', '/nonexistent'], 'cannot read'],
    [
      ['--server', 'https://rentgpu.example', '--token-stdin', '--drivers'],
      '--drivers needs a value',
    ],
    ...['gpu', 'vm,,container', 'vm container', 'VM', 'vm,docker', ''].map(
      (list): [string[], string] => [
        ['--server', 'https://rentgpu.example', '--token-stdin', '--drivers', list],
        `--drivers must be vm, container or vm,container (got '${list}')`,
      ],
    ),
  ])('refuses %j', async (args, message) => {
    const result = await installer(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });

  it.each([
    ['', 'no token on standard input'],
    ['short\n', 'the token must be'],
    [`${TOKEN}'$(id)\n`, 'the token must be'],
  ])('refuses the token %j on standard input', async (stdin, message) => {
    const result = await installer(['--server', 'https://rentgpu.example', '--token-stdin'], stdin);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });

  it('needs root to install for real', async () => {
    if (process.getuid?.() === 0) return; // CI runs as root: nothing to show there
    const result = await installer([...SERVER_ARGS(), '--skip-packages']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('run the installer as root');
  });

  it('--dry-run checks the host, says which image it would download and where, and changes nothing', async () => {
    const prefix = await mkdtemp(path.join(tmp, 'dry-'));
    const before = requested.length;
    const result = await installer([...SERVER_ARGS(), '--prefix', prefix, '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('dry run: nothing is changed');
    expect(result.stdout).toContain('[dry-run] curl -fsSL');
    // The image: its name, URL, size and SHA-256, from the server's catalogue; and where.
    expect(result.stdout).toContain(
      `would download the default OS image ubuntu-22.04 (Ubuntu 22.04 LTS) from ${serverUrl}/images/ubuntu.img (0.1 MiB), SHA-256 ${IMAGE_SHA256}`,
    );
    expect(result.stdout).toContain(`into ${prefix}/var/lib/rentgpu-agent/images/`);
    expect(result.stdout).toContain('--fetch-image');
    expect(await readdir(prefix)).toEqual([]);
    // It read the catalogue and fetched and verified the agent to run its --check (into its
    // temporary folder), nothing else: no image.
    expect(requested.slice(before)).toEqual([
      '/api/providers/agent/images',
      '/api/providers/agent/download-script.sha256',
      '/api/providers/agent/download-script',
    ]);
    expect(result.stdout).toContain("checking what this host can run (the agent's --check)");
    expect(result.stdout).toContain('dry run: the files it would write:');
    expect(result.stdout).toContain(`    ${prefix}/etc/rentgpu-agent/agent.env`);
    expect(result.stdout).toContain(`    ${prefix}/etc/systemd/system/rentgpu-agent.service`);
  });

  it('--dry-run without --prefix: the agent fetches the image as its own user, after the agent is verified and before the service is enabled', async () => {
    const result = await installer([...SERVER_ARGS(), '--skip-packages', '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
    const verify = at(/^\[dry-run\] curl .*sha256sum --check$/);
    const fetch = at(
      /^\[dry-run\] runuser -u rentgpu-agent -- env -i \S+ RENTGPU_SERVER_URL=\S+ AGENT_STATE_DIR=\/var\/lib\/rentgpu-agent \S*node \/opt\/rentgpu-agent\/agent\.mjs --fetch-image$/,
    );
    const enable = at(/^\[dry-run\] systemctl enable rentgpu-agent$/);
    expect(verify, result.stdout).toBeGreaterThan(-1);
    expect(fetch, result.stdout).toBeGreaterThan(verify);
    expect(enable, result.stdout).toBeGreaterThan(fetch);
    expect(result.stdout).toContain('into /var/lib/rentgpu-agent/images/');

    const skipped = await installer([
      ...SERVER_ARGS(),
      '--skip-packages',
      '--skip-image',
      '--dry-run',
    ]);
    expect(skipped.code, skipped.stderr).toBe(0);
    // No fetch is run (the readiness report may still name --fetch-image as the fix).
    expect(skipped.stdout).not.toMatch(/^\[dry-run\] .*--fetch-image$/m);
    expect(skipped.stdout).not.toContain('would download the default OS image');
    expect(skipped.stdout).toContain('skipping the default OS image (--skip-image)');
  });

  it('--dry-run on a new host (no rentgpu-agent user yet) runs the readiness check as the invoking user and says so; once the user exists, as that user', async () => {
    // getent answers for the agent's user as the test says; runuser records its arguments and
    // runs the command after `--` (only root can really switch users).
    const bin = await mkdtemp(path.join(tmp, 'users-'));
    const runuserLog = path.join(bin, 'runuser.log');
    const userExists = path.join(bin, 'user-exists');
    await writeFile(
      path.join(bin, 'getent'),
      `#!/bin/bash\nif [[ "$1 $2" == "passwd rentgpu-agent" ]]; then\n  [[ -e ${JSON.stringify(userExists)} ]] || exit 2\n  echo 'rentgpu-agent:x:998:998::/var/lib/rentgpu-agent:/usr/sbin/nologin'\n  exit 0\nfi\nexit 2\n`,
      { mode: 0o755 },
    );
    await writeFile(
      path.join(bin, 'runuser'),
      `#!/bin/bash\nprintf '%s\\n' "$*" >>${JSON.stringify(runuserLog)}\nwhile (($#)) && [[ "$1" != -- ]]; do shift; done\nshift\nexec "$@"\n`,
      { mode: 0o755 },
    );
    const pathWithStubs = `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`;
    const args = [...SERVER_ARGS(), '--skip-packages', '--skip-image', '--dry-run'];
    const root = process.getuid?.() === 0;

    const fresh = await installer(args, `${TOKEN}\n`, pathWithStubs);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain("checking what this host can run (the agent's --check)");
    expect(fresh.stdout).toContain(
      root
        ? 'the rentgpu-agent user does not exist yet (the install creates it, in group kvm): checking as '
        : 'not run as root, so not as the rentgpu-agent user: checking as ',
    );
    // The agent's report is there (ready or not), not "did not run".
    expect(fresh.stdout).toMatch(/^ {4}host: /m);
    expect(fresh.stdout).toMatch(/^ {4}vm: /m);
    expect(fresh.stderr).not.toContain('readiness check did not run');
    expect(existsSync(runuserLog)).toBe(false);

    await writeFile(userExists, '');
    const again = await installer(args, `${TOKEN}\n`, pathWithStubs);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^ {4}host: /m);
    expect(again.stderr).not.toContain('readiness check did not run');
    if (root) {
      expect(again.stdout).not.toContain('does not exist yet');
      expect(await readFile(runuserLog, 'utf8')).toMatch(
        /^-u rentgpu-agent -- env -i \S+ RENTGPU_SERVER_URL=\S+ AGENT_STATE_DIR=\/var\/lib\/rentgpu-agent AGENT_DRIVERS=vm \S*node \S+\/rentgpu-agent\.mjs --check$/m,
      );
    } else {
      expect(again.stdout).toContain('not run as root, so not as the rentgpu-agent user');
    }
  });

  it("--prefix installs the verified agent, its 0600 configuration and token file, and the hardened unit; the token is in no command's arguments", async () => {
    const prefix = await mkdtemp(path.join(tmp, 'root-'));
    const argvLog = path.join(tmp, 'argv.log');
    const bin = await recordingPath(argvLog);
    const result = await installer(
      [
        '--server',
        `${serverUrl}/`,
        '--allow-http',
        '--token-stdin',
        '--prefix',
        prefix,
        '--skip-packages',
      ],
      `${TOKEN}\n`,
      bin,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('agent checksum verified');
    // Every command the installer ran, with its arguments: the token is in none of them.
    const commands = (await readFile(argvLog, 'utf8'))
      .split('\n')
      .map((line) => line.split('\0').filter(Boolean))
      .filter((c) => c.length > 0);
    expect(commands.map((c) => c[0])).toEqual(
      expect.arrayContaining(['curl', 'sha256sum', 'install', 'mktemp']),
    );
    expect(commands.filter((c) => c.join(' ').includes(TOKEN))).toEqual([]);
    // The agent fetched the default image itself, after the agent's checksum was checked.
    const state = path.join(prefix, 'var/lib/rentgpu-agent');
    const checked = commands.findIndex((c) => c[0] === 'sha256sum');
    const fetched = commands.findIndex((c) => c[0] === 'node' && c.includes('--fetch-image'));
    expect(checked).toBeGreaterThan(-1);
    expect(fetched).toBeGreaterThan(checked);
    expect(commands[fetched]?.slice(1)).toEqual([
      path.join(prefix, 'opt/rentgpu-agent/agent.mjs'),
      '--fetch-image',
    ]);
    expect(commands[fetched - 1]).toEqual(
      expect.arrayContaining([
        'env',
        '-i',
        `RENTGPU_SERVER_URL=${serverUrl}`,
        `AGENT_STATE_DIR=${state}`,
      ]),
    );
    expect(result.stdout).toContain(`ubuntu-22.04 verified (SHA-256 ${IMAGE_SHA256})`);
    expect((await readdir(path.join(state, 'images'))).sort()).toEqual([
      `ubuntu-22.04.${IMAGE_SHA256}.json`,
      `ubuntu-22.04.${IMAGE_SHA256}.qcow2`,
    ]);
    expect(
      (await readFile(path.join(state, 'images', `ubuntu-22.04.${IMAGE_SHA256}.qcow2`))).equals(
        IMAGE,
      ),
    ).toBe(true);
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
    // The host checks ran (this machine may pass or fail them; either way it goes on).
    expect(result.stdout).toMatch(/Linux kernel/);
    expect(`${result.stdout}${result.stderr}`).toMatch(/RAM/);
    expect(requested).toContain('/api/providers/agent/download-script');

    const agent = path.join(prefix, 'opt/rentgpu-agent/agent.mjs');
    expect(Buffer.from(await readFile(agent)).equals(Buffer.from(agentBundle))).toBe(true);

    const envFile = path.join(prefix, 'etc/rentgpu-agent/agent.env');
    expect((await stat(envFile)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(envFile))).mode & 0o777).toBe(0o700);
    const env = await readFile(envFile, 'utf8');
    const vars = Object.fromEntries(
      env
        .split('\n')
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
    expect(vars).toEqual({
      RENTGPU_SERVER_URL: serverUrl,
      AGENT_ENROLL_TOKEN_FILE: '/var/lib/rentgpu-agent/enrol-token',
      AGENT_STATE_DIR: '/var/lib/rentgpu-agent',
      AGENT_DRIVERS: 'vm',
      AGENT_HEARTBEAT_INTERVAL_MS: '30000',
      AGENT_UPDATE_INTERVAL_MS: '60000',
    });
    expect(env).not.toContain(TOKEN);
    expect((await stat(path.join(prefix, 'var/lib/rentgpu-agent'))).mode & 0o777).toBe(0o700);
    const tokenFile = path.join(prefix, 'var/lib/rentgpu-agent/enrol-token');
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    expect(await readFile(tokenFile, 'utf8')).toBe(`${TOKEN}\n`);
    expect(
      await readFile(path.join(prefix, 'etc/udev/rules.d/60-rentgpu-vfio.rules'), 'utf8'),
    ).toContain('SUBSYSTEM=="vfio", GROUP="rentgpu-agent", MODE="0660"');

    const unit = await readFile(
      path.join(prefix, 'etc/systemd/system/rentgpu-agent.service'),
      'utf8',
    );
    expect(unit).toContain('EnvironmentFile=/etc/rentgpu-agent/agent.env');
    expect(unit).toMatch(/^ExecStart=\/\S*node \/opt\/rentgpu-agent\/agent\.mjs$/m);
    expect(unit).toContain('Restart=always');
    expect(unit).toContain('KillMode=process');
    expect(unit).toContain('WantedBy=multi-user.target');
    // Its own user, never root; only the state folder is writable.
    for (const line of [
      'User=rentgpu-agent',
      'Group=rentgpu-agent',
      'SupplementaryGroups=kvm',
      'NoNewPrivileges=yes',
      'CapabilityBoundingSet=',
      'ProtectSystem=strict',
      'ReadWritePaths=/var/lib/rentgpu-agent',
      'ProtectHome=yes',
      'PrivateTmp=yes',
      'RestrictSUIDSGID=yes',
      'LimitMEMLOCK=infinity',
    ]) {
      expect(unit.split('\n'), line).toContain(line);
    }
    // Device restrictions would take /dev/kvm and /dev/vfio away from QEMU.
    expect(unit).not.toMatch(/^(PrivateDevices|DevicePolicy|ProtectClock)=/m);
    // VMs only (the default): nothing of the container driver's.
    expect(existsSync(path.join(prefix, 'etc/subuid'))).toBe(false);
    expect(existsSync(path.join(prefix, 'etc/subgid'))).toBe(false);
    expect(result.stdout).not.toContain('podman');
    expect(`${result.stdout}${result.stderr}`).not.toContain('nvidia-ctk');

    // The installed agent runs with Node alone, and a bad configuration stops it with a message.
    const bad = await run(process.execPath, [agent], {
      env: { PATH: process.env.PATH ?? '', RENTGPU_SERVER_URL: 'not a url' },
      cwd: tmp,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code?: number; stderr?: string }) => ({ code: e.code, stderr: e.stderr ?? '' }),
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Invalid agent configuration');
    expect(bad.stderr).toContain('RENTGPU_SERVER_URL');
  });

  /** The lines of agent.env that are not comments, as an object. */
  async function envVars(prefix: string): Promise<Record<string, string>> {
    const text = await readFile(path.join(prefix, 'etc/rentgpu-agent/agent.env'), 'utf8');
    return Object.fromEntries(
      text
        .split('\n')
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
  }
  const unitOf = (prefix: string) =>
    readFile(path.join(prefix, 'etc/systemd/system/rentgpu-agent.service'), 'utf8');
  /** What ADR 025 says a container host's unit holds, and what it must not. */
  const CONTAINER_UNIT_LINES = [
    'NoNewPrivileges=yes',
    'KillMode=process',
    'UMask=0022',
    'LimitMEMLOCK=infinity',
    'Restart=always',
    'EnvironmentFile=/etc/rentgpu-agent/agent.env',
  ];
  // Each makes a mount namespace (Podman's mounts would not reach the host: no adoption after a
  // restart), installs a seccomp filter every container inherits, or takes root's capabilities.
  const NOT_IN_CONTAINER_UNIT =
    /^(User|Group|SupplementaryGroups|CapabilityBoundingSet|AmbientCapabilities|ProtectSystem|ReadWritePaths|ProtectHome|PrivateTmp|PrivateDevices|ProtectKernel\w*|ProtectControlGroups|ProtectHostname|ProtectClock|RestrictSUIDSGID|RestrictNamespaces|RestrictRealtime|LockPersonality|SystemCallArchitectures|SystemCallFilter|MountFlags)=/m;

  it('--drivers container writes AGENT_DRIVERS, adds the containers: subordinate ids once (kept by a re-run), asks for the toolkit, and runs the service as root with the hardening that fits', async () => {
    const prefix = await mkdtemp(path.join(tmp, 'ct-'));
    // A subuid file whose last line has no newline; a subgid file with a range over Podman's
    // documented one, so the range goes above it.
    await mkdir(path.join(prefix, 'etc'));
    await writeFile(path.join(prefix, 'etc/subuid'), 'alice:100000:65536');
    await writeFile(path.join(prefix, 'etc/subgid'), 'alice:100000:65536\nbob:3000000000:65536\n');
    const argvLog = path.join(tmp, 'ct-argv.log');
    const bin = await recordingPath(argvLog);
    const before = requested.length;
    const result = await installer(
      [...SERVER_ARGS(), '--prefix', prefix, '--skip-packages', '--drivers', 'container'],
      `${TOKEN}\n`,
      bin,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(await envVars(prefix)).toMatchObject({ AGENT_DRIVERS: 'container' });
    expect(result.stdout).toContain(
      'skipping packages (podman runc uidmap containernetworking-plugins iptables catatonit conmon dropbear-bin openssh-client)',
    );
    expect(await readFile(path.join(prefix, 'etc/subuid'), 'utf8')).toBe(
      'alice:100000:65536\ncontainers:2147483647:2147483648\n',
    );
    expect(await readFile(path.join(prefix, 'etc/subgid'), 'utf8')).toBe(
      'alice:100000:65536\nbob:3000000000:65536\ncontainers:3000065536:1294901759\n',
    );
    expect((await stat(path.join(prefix, 'etc/subuid'))).mode & 0o777).toBe(0o644);
    // No NVIDIA Container Toolkit here (the stand-ins' PATH has none): the provider is told what
    // to install and the exact command; nothing is downloaded for it.
    expect(result.stderr).toContain(
      'the NVIDIA Container Toolkit is not installed (no nvidia-ctk)',
    );
    expect(result.stderr).toContain(`nvidia-container-toolkit ${MIN_TOOLKIT_VERSION} or later`);
    expect(result.stderr).toContain(
      'then run: sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml',
    );
    // Containers bring their own images: no VM image, no VFIO rule.
    expect(requested.slice(before)).not.toContain('/api/providers/agent/images');
    expect(existsSync(path.join(prefix, 'var/lib/rentgpu-agent/images'))).toBe(false);
    expect(existsSync(path.join(prefix, 'etc/udev/rules.d/60-rentgpu-vfio.rules'))).toBe(false);
    // The readiness check ran with the host's drivers, so its report covers containers.
    const commands = (await readFile(argvLog, 'utf8'))
      .split('\n')
      .map((line) => line.split('\0').filter(Boolean))
      .filter((c) => c.length > 0);
    const check = commands.find((c) => c[0] === 'env' && c.includes('--check'));
    expect(check).toEqual(expect.arrayContaining(['-i', 'AGENT_DRIVERS=container']));
    expect(result.stdout).toContain('vm: not offered (AGENT_DRIVERS)');
    expect(commands.filter((c) => c.join(' ').includes(TOKEN))).toEqual([]);

    const unit = await unitOf(prefix);
    for (const line of CONTAINER_UNIT_LINES) expect(unit.split('\n'), line).toContain(line);
    expect(unit).toMatch(/^ExecStart=\/\S*node \/opt\/rentgpu-agent\/agent\.mjs$/m);
    expect(unit).not.toMatch(NOT_IN_CONTAINER_UNIT);

    // Again, with the toolkit present and no --drivers: the earlier choice is kept and no
    // second containers: line is added.
    const stubs = await mkdtemp(path.join(tmp, 'stubs-'));
    await writeFile(
      path.join(stubs, 'nvidia-ctk'),
      '#!/bin/sh\necho "NVIDIA Container Toolkit CLI version 1.17.8"\necho "commit: abc"\n',
      { mode: 0o755 },
    );
    const again = await installer(
      [...SERVER_ARGS(), '--prefix', prefix, '--skip-packages'],
      `${TOKEN}\n`,
      `${stubs}:${bin}`,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('AGENT_DRIVERS=container, as installed before');
    expect(await envVars(prefix)).toMatchObject({ AGENT_DRIVERS: 'container' });
    expect(await readFile(path.join(prefix, 'etc/subuid'), 'utf8')).toBe(
      'alice:100000:65536\ncontainers:2147483647:2147483648\n',
    );
    expect(await readFile(path.join(prefix, 'etc/subgid'), 'utf8')).toBe(
      'alice:100000:65536\nbob:3000000000:65536\ncontainers:3000065536:1294901759\n',
    );
    expect(again.stdout).toContain(`${prefix}/etc/subuid has a containers: range`);
    expect(again.stdout).toContain(
      'NVIDIA Container Toolkit: NVIDIA Container Toolkit CLI version 1.17.8',
    );
    expect(again.stderr).toContain(
      'no CDI spec names the GPUs (kind nvidia.com/gpu in /etc/cdi or /var/run/cdi): Podman cannot hand them to containers. Run: sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml',
    );
    expect(await unitOf(prefix)).toBe(unit);
  }, 120_000);

  it('--drivers container: a CDI spec naming the GPUs silences the toolkit warning; vm,container keeps the VM parts and runs as root', async () => {
    const prefix = await mkdtemp(path.join(tmp, 'vmct-'));
    await mkdir(path.join(prefix, 'etc/cdi'), { recursive: true });
    await writeFile(
      path.join(prefix, 'etc/cdi/nvidia.yaml'),
      'cdiVersion: 0.5.0\nkind: nvidia.com/gpu\ndevices:\n- name: "0"\n',
    );
    const stubs = await mkdtemp(path.join(tmp, 'stubs-'));
    await writeFile(
      path.join(stubs, 'nvidia-ctk'),
      '#!/bin/sh\necho "NVIDIA Container Toolkit CLI version 1.17.8"\n',
      { mode: 0o755 },
    );
    const result = await installer(
      [...SERVER_ARGS(), '--prefix', prefix, '--skip-packages', '--drivers=container,vm'],
      `${TOKEN}\n`,
      `${stubs}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(await envVars(prefix)).toMatchObject({ AGENT_DRIVERS: 'vm,container' });
    expect(result.stdout).toContain(`CDI spec for the GPUs: ${prefix}/etc/cdi/nvidia.yaml`);
    expect(result.stderr).not.toContain('CDI spec');
    expect(result.stdout).toContain(
      'skipping packages (qemu-system-x86 qemu-utils genisoimage ovmf openssh-client podman runc uidmap containernetworking-plugins iptables catatonit conmon dropbear-bin)',
    );
    // VMs too: the image is fetched and QEMU's VFIO rule written; the unit is root's.
    expect(result.stdout).toContain(`ubuntu-22.04 verified (SHA-256 ${IMAGE_SHA256})`);
    expect(existsSync(path.join(prefix, 'etc/udev/rules.d/60-rentgpu-vfio.rules'))).toBe(true);
    const unit = await unitOf(prefix);
    for (const line of CONTAINER_UNIT_LINES) expect(unit.split('\n'), line).toContain(line);
    expect(unit).not.toMatch(NOT_IN_CONTAINER_UNIT);
    expect(await readFile(path.join(prefix, 'etc/subuid'), 'utf8')).toBe(
      'containers:2147483647:2147483648\n',
    );
  });

  it('--dry-run --drivers container prints the packages, the subordinate ids and the unit (root, its hardening), and runs --check with AGENT_DRIVERS', async () => {
    const result = await installer([
      ...SERVER_ARGS(),
      '--skip-image',
      '--drivers',
      'container',
      '--dry-run',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const packages =
      'podman runc uidmap containernetworking-plugins iptables catatonit conmon dropbear-bin openssh-client';
    if (existsSync('/etc/debian_version')) {
      expect(result.stdout).toContain(
        `[dry-run] env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${packages}\n`,
      );
    } else {
      expect(result.stderr).toContain(`(Debian's names: ${packages})`);
    }
    // This machine may have the containers: ranges already (scripts/test-prereqs.sh adds them).
    for (const file of ['/etc/subuid', '/etc/subgid']) {
      expect(result.stdout).toMatch(
        new RegExp(
          `would add containers:\\d+:\\d+ to ${file} |${file} has a containers: range|cannot read ${file}`,
        ),
      );
    }
    expect(result.stdout).toContain(
      'would write /etc/systemd/system/rentgpu-agent.service (the service, as root: rootful Podman for containers)',
    );
    const unit = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('    '))
      .map((line) => line.slice(4));
    for (const line of CONTAINER_UNIT_LINES) expect(unit, line).toContain(line);
    expect(unit.join('\n')).not.toMatch(NOT_IN_CONTAINER_UNIT);
    // --check ran with AGENT_DRIVERS=container: its report names the kinds.
    expect(result.stdout).toContain("checking what this host can run (the agent's --check)");
    expect(result.stdout).toContain('vm: not offered (AGENT_DRIVERS)');
    expect(result.stdout).toMatch(/^ {4}container: /m);
    expect(result.stdout).not.toContain('runuser');
  });

  it('--dry-run prints the VM unit as before (User=rentgpu-agent, ProtectSystem=strict)', async () => {
    const result = await installer([...SERVER_ARGS(), '--skip-image', '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('    User=rentgpu-agent\n');
    expect(result.stdout).toContain('    ProtectSystem=strict\n');
    expect(result.stdout).not.toMatch(/would add containers:/);
    if (existsSync('/etc/debian_version')) {
      expect(result.stdout).toContain(
        '--no-install-recommends qemu-system-x86 qemu-utils genisoimage ovmf openssh-client\n',
      );
    }
  });

  it('keeps the toolkit version it asks for equal to the readiness rules', async () => {
    const text = await readFile(INSTALLER, 'utf8');
    expect(text).toContain(`readonly MIN_TOOLKIT_VERSION=${MIN_TOOLKIT_VERSION}\n`);
  });

  // systemd's own parser: no unknown key, no bad value, in either unit.
  it.skipIf(!SYSTEMD_ANALYZE)('both units pass systemd-analyze verify', async () => {
    for (const drivers of ['vm', 'container']) {
      const prefix = await mkdtemp(path.join(tmp, `verify-${drivers}-`));
      const result = await installer([
        ...SERVER_ARGS(),
        '--prefix',
        prefix,
        '--skip-packages',
        '--skip-image',
        '--drivers',
        drivers,
      ]);
      expect(result.code, result.stderr).toBe(0);
      const file = path.join(prefix, 'etc/systemd/system/rentgpu-agent.service');
      const verified = await run(SYSTEMD_ANALYZE as string, ['verify', file]).then(
        (r) => r.stdout + r.stderr,
        (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}failed`,
      );
      expect(verified, drivers).toBe('');
    }
  });

  it('stops, installing nothing, when the agent does not match its published SHA-256', async () => {
    const prefix = await mkdtemp(path.join(tmp, 'tampered-'));
    publishedSha256 = 'a'.repeat(64);
    try {
      const result = await installer([...SERVER_ARGS(), '--prefix', prefix, '--skip-packages']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('does not match its published SHA-256');
      expect(result.stderr).toContain('nothing was installed');
      expect(await readdir(prefix)).toEqual([]);
    } finally {
      publishedSha256 = null;
    }
  });

  it('stops before the service is set up when the default image does not match its SHA-256; --skip-image installs without it', async () => {
    const prefix = await mkdtemp(path.join(tmp, 'bad-image-'));
    imageSha256 = 'b'.repeat(64);
    try {
      const result = await installer([...SERVER_ARGS(), '--prefix', prefix, '--skip-packages']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('checksum mismatch');
      expect(result.stderr).toContain('the default OS image could not be fetched and verified');
      expect(result.stderr).toContain('--skip-image');
      expect(await readdir(path.join(prefix, 'var/lib/rentgpu-agent/images'))).toEqual([]);
      expect(existsSync(path.join(prefix, 'etc/systemd/system/rentgpu-agent.service'))).toBe(false);

      const before = requested.length;
      const skipped = await installer([
        ...SERVER_ARGS(),
        '--prefix',
        prefix,
        '--skip-packages',
        '--skip-image',
      ]);
      expect(skipped.code, skipped.stderr).toBe(0);
      expect(skipped.stdout).toContain('skipping the default OS image (--skip-image)');
      expect(requested.slice(before)).not.toContain('/api/providers/agent/images');
      expect(existsSync(path.join(prefix, 'etc/systemd/system/rentgpu-agent.service'))).toBe(true);
    } finally {
      imageSha256 = IMAGE_SHA256;
    }
  });

  it('--token-file reads the token from a file instead of standard input', async () => {
    const prefix = await mkdtemp(path.join(tmp, 'file-'));
    const source = path.join(tmp, 'token');
    await writeFile(source, `${TOKEN}\n`, { mode: 0o600 });
    const result = await installer(
      [
        '--server',
        serverUrl,
        '--allow-http',
        '--token-file',
        source,
        '--prefix',
        prefix,
        '--skip-packages',
      ],
      '',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(path.join(prefix, 'var/lib/rentgpu-agent/enrol-token'), 'utf8')).toBe(
      `${TOKEN}\n`,
    );
  });

  it('stops when the server does not serve the agent', async () => {
    const prefix = await mkdtemp(path.join(tmp, 'fail-'));
    const dead = 'http://127.0.0.1:9';
    const result = await installer([
      '--server',
      dead,
      '--allow-http',
      '--token-stdin',
      '--prefix',
      prefix,
      '--skip-packages',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('could not download the agent');
    expect(await readdir(prefix)).toEqual([]);
  });
});
