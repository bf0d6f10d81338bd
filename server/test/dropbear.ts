import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../scripts/free-port.mjs';

const DROPBEAR = '/usr/sbin/dropbear';

/**
 * Dropbear can serve the tests here: it is installed and we may give it a home of its own
 * (root, and `unshare` for a private mount namespace).
 */
export function dropbearUsable(): boolean {
  return existsSync(DROPBEAR) && process.getuid?.() === 0 && hasCommand('unshare');
}

export interface Dropbear {
  port: number;
  /** The user to log in as: the one running the tests. */
  username: string;
  /** Its SSH host key, as an OpenSSH public key line (`ssh-ed25519 AAAA…`). */
  hostPublicKey: string;
  /** How many connections it is serving now (its child processes, one per connection). */
  connections(): number;
  stop(): Promise<void>;
}

/**
 * A real SSH server on 127.0.0.1 (dropbear, in the foreground) that lets in `authorizedKey`
 * as the current user. Dropbear reads ~/.ssh/authorized_keys of the user it logs in, so it
 * runs in its own mount namespace where a temporary folder is bind-mounted over that home:
 * the machine's own files are neither read nor written.
 */
export async function startDropbear(authorizedKey: string): Promise<Dropbear> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rentgpu-dropbear-'));
  const home = path.join(dir, 'home');
  await mkdir(path.join(home, '.ssh'), { recursive: true, mode: 0o700 });
  await chmod(home, 0o700);
  await writeFile(path.join(home, '.ssh', 'authorized_keys'), `${authorizedKey}\n`, {
    mode: 0o600,
  });
  const hostKey = path.join(dir, 'host_key');
  execFileSync('dropbearkey', ['-t', 'ed25519', '-f', hostKey], { stdio: 'ignore' });
  const hostPublicKey =
    execFileSync('dropbearkey', ['-y', '-f', hostKey])
      .toString()
      .split('\n')
      .find((line) => line.startsWith('ssh-ed25519 ')) ?? '';
  const user = os.userInfo();
  const pidFile = path.join(dir, 'dropbear.pid');
  let started: { child: ChildProcess; port: number } | null = null;
  const failures: string[] = [];
  // The port freePort found free can still be taken before dropbear binds it. A port the
  // system picked was an ephemeral one, which any outgoing connection on the machine may get
  // (CI's other lane opens many); freePort now picks outside that range, so only another
  // listener asking for that very port could. Dropbear then exits at once, and a new port is
  // tried.
  for (let attempt = 1; attempt <= 3 && !started; attempt += 1) {
    const port = await freePort();
    const child = spawn(
      'unshare',
      [
        '-m',
        'sh',
        '-c',
        'mount --bind "$1" "$2" && exec "$3" -F -E -s -m -p "127.0.0.1:$4" -r "$5" -P "$6"',
        'sh',
        home,
        user.homedir,
        DROPBEAR,
        String(port),
        hostKey,
        pidFile,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const outcome = await listening(child, port);
    if (outcome === 'listening') started = { child, port };
    else failures.push(`port ${port}: ${outcome}`);
    // A dropbear that ran a minute without listening is not a port taken: no other port.
    if (outcome.startsWith('not listening')) break;
  }
  if (!started) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`dropbear did not start: ${failures.join('; ')}`);
  }
  const { child, port } = started;
  return {
    port,
    username: user.username,
    hostPublicKey,
    connections() {
      try {
        return execFileSync('pgrep', ['-P', String(child.pid)])
          .toString()
          .trim()
          .split('\n').length;
      } catch {
        return 0; // pgrep exits 1 when there is none
      }
    },
    async stop() {
      // The sessions dropbear forked outlive it and may still write in the bound home (a
      // shell's history on hang-up): every descendant goes first, then the folder.
      const sessions = child.pid ? descendants(child.pid) : [];
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      for (const pid of sessions) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/**
 * Waits until dropbear accepts connections on `port`: 'listening', or why not (its exit and
 * all it wrote to stderr, or that it still did not listen after a minute).
 */
async function listening(child: ChildProcess, port: number): Promise<string> {
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  // 'close' comes after the last of stderr ('exit' may come before it).
  const closed = new Promise<string>((resolve) =>
    child.once('close', (code, signal) => resolve(`exited (${signal ?? code}): ${log.trim()}`)),
  );
  // Dropbear listens within milliseconds on a quiet machine; the wait is long for a loaded one
  // (CI once saw no listener within 10 s while its other lane kept both cores busy).
  const deadline = Date.now() + 60_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || child.signalCode !== null) return closed;
    if (Date.now() > deadline) {
      child.kill();
      return `not listening after 60 s: ${log.trim()}`;
    }
    await sleep(50);
  }
  return 'listening';
}

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Every process below `pid` (children first found, then theirs), by pgrep -P. */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)])
      .toString()
      .trim()
      .split('\n')
      .map(Number)
      .filter((n) => n > 0);
  } catch {
    return []; // pgrep exits 1 when there is none
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}
