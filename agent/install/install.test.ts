import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The installer (agent/install/install.sh): static, strict about its arguments, takes the
 * token on standard input (never as an argument), refuses an agent that does not match the
 * SHA-256 the server publishes, and in --prefix mode (no root, no packages, no systemctl, no
 * user) installs the agent, its 0600 configuration and token file and the hardened unit.
 */
const run = promisify(execFile);
const INSTALLER = path.join(import.meta.dirname, 'install.sh');
const REPO_DIR = path.resolve(import.meta.dirname, '../..');
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789-XY';
/** By absolute path: the recording test's PATH holds only stand-ins. */
const BASH = ['/bin/bash', '/usr/bin/bash'].find((p) => existsSync(p)) ?? 'bash';
const SHELLCHECK = ['/usr/bin/shellcheck', '/usr/local/bin/shellcheck'].find((p) => existsSync(p));

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
  return new Promise((resolve, reject) => {
    const child = spawn(BASH, [INSTALLER, ...args], {
      env: { PATH: path_, HOME: tmp },
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.on('error', () => {}); // a refusal may exit before reading its input
    child.stdin.end(stdin);
  });
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

  it.each([
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
    expect(skipped.stdout).not.toContain('--fetch-image');
    expect(skipped.stdout).not.toContain('would download the default OS image');
    expect(skipped.stdout).toContain('skipping the default OS image (--skip-image)');
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
