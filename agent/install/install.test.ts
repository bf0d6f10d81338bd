import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The installer (agent/install/install.sh): static, strict about its two arguments, and in
 * --prefix mode (no root, no packages, no systemctl) it installs the agent it downloads from
 * the server, its 0600 configuration and the systemd unit.
 */
const run = promisify(execFile);
const INSTALLER = path.join(import.meta.dirname, 'install.sh');
const REPO_DIR = path.resolve(import.meta.dirname, '../..');
const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz0123456789-XY';
const SHELLCHECK = ['/usr/bin/shellcheck', '/usr/local/bin/shellcheck'].find((p) => existsSync(p));

let agentBundle: Uint8Array;
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

async function installer(args: string[]) {
  try {
    const { stdout, stderr } = await run('bash', [INSTALLER, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('the installer script', () => {
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
    [['--server', 'https://rentgpu.example'], '--token is required'],
    [['--server', 'https://rentgpu.example/path', '--token', TOKEN], '--server must be'],
    [['--server', 'https://x.example;reboot', '--token', TOKEN], '--server must be'],
    [['--server', 'ftp://rentgpu.example', '--token', TOKEN], '--server must be'],
    [['--server', 'https://rentgpu.example', '--token', 'short'], '--token must be'],
    [['--server', 'https://rentgpu.example', '--token', `${TOKEN}'$(id)`], '--token must be'],
    [['--server', 'https://rentgpu.example', '--token', TOKEN, '--bogus'], 'unknown argument'],
    [['--server', 'https://rentgpu.example', '--token', TOKEN, '--prefix', 'rel'], 'absolute'],
  ])('refuses %j', async (args, message) => {
    const result = await installer(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });

  it('needs root to install for real', async () => {
    if (process.getuid?.() === 0) return; // CI runs as root: nothing to show there
    const result = await installer(['--server', serverUrl, '--token', TOKEN, '--skip-packages']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('run the installer as root');
  });

  it('--dry-run checks the host and changes nothing', async () => {
    const prefix = await mkdtemp(path.join(tmp, 'dry-'));
    const before = requested.length;
    const result = await installer([
      '--server',
      serverUrl,
      '--token',
      TOKEN,
      '--prefix',
      prefix,
      '--dry-run',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('dry run: nothing is changed');
    expect(result.stdout).toContain('[dry-run] curl -fsSL');
    expect(await readdir(prefix)).toEqual([]);
    expect(requested.length).toBe(before);
  });

  it('--prefix installs the downloaded agent, its 0600 configuration and the systemd unit', async () => {
    const prefix = await mkdtemp(path.join(tmp, 'root-'));
    const result = await installer([
      '--server',
      `${serverUrl}/`,
      '--token',
      TOKEN,
      '--prefix',
      prefix,
      '--skip-packages',
    ]);
    expect(result.code, result.stderr).toBe(0);
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
      AGENT_ENROLL_TOKEN: TOKEN,
      AGENT_STATE_DIR: '/var/lib/rentgpu-agent',
      AGENT_HEARTBEAT_INTERVAL_MS: '30000',
      AGENT_UPDATE_INTERVAL_MS: '60000',
    });
    expect((await stat(path.join(prefix, 'var/lib/rentgpu-agent'))).mode & 0o777).toBe(0o700);

    const unit = await readFile(
      path.join(prefix, 'etc/systemd/system/rentgpu-agent.service'),
      'utf8',
    );
    expect(unit).toContain('EnvironmentFile=/etc/rentgpu-agent/agent.env');
    expect(unit).toMatch(/^ExecStart=\/\S*node \/opt\/rentgpu-agent\/agent\.mjs$/m);
    expect(unit).toContain('Restart=always');
    expect(unit).toContain('KillMode=process');
    expect(unit).toContain('WantedBy=multi-user.target');

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

  it('stops when the server does not serve the agent', async () => {
    const prefix = await mkdtemp(path.join(tmp, 'fail-'));
    const dead = 'http://127.0.0.1:9';
    const result = await installer([
      '--server',
      dead,
      '--token',
      TOKEN,
      '--prefix',
      prefix,
      '--skip-packages',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('could not download the agent');
    expect(existsSync(path.join(prefix, 'etc/rentgpu-agent/agent.env'))).toBe(false);
  });
});
