import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * One real OpenSSH login, as a renter makes it: the key alone (no agent, no config file), the
 * host key checked against `knownHosts`. `strict`: the host key must already be there (the
 * agent made it: containers); otherwise it is pinned on first use (a VM's guest made its own).
 * Readiness for both drivers is a login like this, not an answering port.
 */
export async function sshLogin(o: {
  ssh: string;
  keyFile: string;
  knownHosts: string;
  host: string;
  port: number;
  user: string;
  /** Absent: none sent (the user's key runs a forced command, as the VM probe's does). */
  command?: string;
  timeoutMs: number;
  strict?: boolean;
}): Promise<{ ok: true; stdout: string } | { ok: false; why: string }> {
  try {
    const { stdout } = await run(
      o.ssh,
      [
        '-F',
        '/dev/null',
        '-i',
        o.keyFile,
        '-o',
        'BatchMode=yes',
        '-o',
        'IdentitiesOnly=yes',
        '-o',
        `StrictHostKeyChecking=${o.strict ? 'yes' : 'accept-new'}`,
        '-o',
        `UserKnownHostsFile=${o.knownHosts}`,
        '-o',
        'GlobalKnownHostsFile=/dev/null',
        '-o',
        'HostKeyAlgorithms=ssh-ed25519',
        '-o',
        'ConnectTimeout=10',
        '-o',
        'ServerAliveInterval=15',
        '-o',
        'LogLevel=ERROR',
        '-p',
        String(o.port),
        '-l',
        o.user,
        '--',
        o.host,
        ...(o.command === undefined ? [] : [o.command]),
      ],
      { timeout: o.timeoutMs, maxBuffer: 1024 * 1024 },
    );
    return { ok: true, stdout };
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    return { ok: false, why: (e.stderr || e.message).trim().slice(0, 300) };
  }
}
