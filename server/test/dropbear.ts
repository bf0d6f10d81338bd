import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

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
  const port = await freePort();
  const user = os.userInfo();
  const child: ChildProcess = spawn(
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
      path.join(dir, 'dropbear.pid'),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`dropbear did not start: ${log}`);
    }
    await sleep(50);
  }
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

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
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
