import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);
export const REPO_DIR = path.resolve(import.meta.dirname, '../..');
export const GUEST_DIR = path.join(REPO_DIR, '.cache/test-guest');
export const FAKE_NVIDIA_SMI = path.join(import.meta.dirname, 'fake-nvidia-smi');

export interface AgentProcess {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

/** A new ed25519 key pair without a passphrase: the private key at `file`, `<file>.pub` beside it. */
export async function newKeyPair(file: string, comment: string) {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file]);
}

/** What a child process printed and its exit code (-1 when a signal or its timeout ended it). */
export function outputOf(
  child: ChildProcess,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The real agent, as a child process (tsx runs the TypeScript sources). */
export function spawnAgent(env: Record<string, string>): AgentProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'agent/main.ts'], {
    cwd: REPO_DIR,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (chunk: Buffer) =>
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, lines, exited };
}

/** QEMU processes of one instance, found by their `-name` (independently of the agent's code). */
export async function qemuPidsOf(instanceId: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0');
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && argv.includes(`rentgpu-${instanceId}`)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** The real OpenSSH client with the renter's key. */
export async function ssh(key: string, port: number, user: string, command: string) {
  // A guest under heavy host load can drop a connection during key exchange; a person would
  // simply try again, and so does the test (the command itself is never retried after it ran).
  for (let attempt = 1; ; attempt++) {
    try {
      return await sshOnce(key, port, user, command);
    } catch (err) {
      const text = String((err as { stderr?: string }).stderr ?? '');
      if (
        attempt >= 4 ||
        !/kex_exchange_identification|Connection (closed|reset)|timed out/.test(text)
      ) {
        throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
}

function sshArgs(key: string, port: number, user: string, command: string) {
  return [
    '-i',
    key,
    '-p',
    String(port),
    '-o',
    'StrictHostKeyChecking=no',
    '-o',
    'UserKnownHostsFile=/dev/null',
    '-o',
    'BatchMode=yes',
    '-o',
    'LogLevel=ERROR',
    '-o',
    'ConnectTimeout=30',
    `${user}@127.0.0.1`,
    command,
  ];
}

async function sshOnce(key: string, port: number, user: string, command: string) {
  const { stdout } = await run('ssh', sshArgs(key, port, user, command), { timeout: 90_000 });
  return stdout;
}

/**
 * A logged-in SSH session held open (a shell that sleeps) until `close()`; resolves once the
 * guest's shell has answered, so the session is past authentication.
 */
export async function holdSsh(key: string, port: number, user: string) {
  const child = spawn('ssh', sshArgs(key, port, user, 'echo in; exec sleep 600'), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (out.includes('in\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`ssh exited ${code} before logging in`)));
  });
  return {
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The RFB handshake up to the server's list of security types. */
export function vncSecurityTypes(port: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection({ host: '127.0.0.1', port });
    let buf = Buffer.alloc(0);
    let sentVersion = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no RFB answer'));
    }, 10_000);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!sentVersion && buf.length >= 12) {
        sentVersion = true;
        socket.write('RFB 003.008\n');
        buf = buf.subarray(12);
      }
      if (sentVersion && buf.length >= 1 && buf.length >= 1 + (buf[0] ?? 0)) {
        clearTimeout(timer);
        socket.destroy();
        resolve([...buf.subarray(1, 1 + (buf[0] ?? 0))]);
      }
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
