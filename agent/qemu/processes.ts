import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * QEMU runs daemonized, outside the agent's process tree, so it outlives an agent restart.
 * The agent finds each instance's QEMU again by its command line: `-name rentgpu-<id>` and
 * the instance folder's `-pidfile` (a stale pid file alone could name a recycled pid).
 */
export async function findQemuProcesses(pidFileById: Map<string, string>) {
  const found = new Map<string, number>();
  const wanted = new Map<string, string>();
  for (const [id, pidFile] of pidFileById) wanted.set(pidFile, id);
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0');
    } catch {
      continue;
    }
    const pidFile = argv[argv.indexOf('-pidfile') + 1];
    const id = pidFile ? wanted.get(pidFile) : undefined;
    if (!id || argv[argv.indexOf('-name') + 1] !== `rentgpu-${id}`) continue;
    const pid = Number(entry);
    if (await isAlive(pid)) found.set(id, pid);
  }
  return found;
}

/** Alive and not a zombie (a container's pid 1 may not reap the daemonized QEMU). */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await isAlive(pid))) return true;
    await sleep(100);
  }
  return !(await isAlive(pid));
}

// Shared with the container driver (agent/access/net.ts).
export { portIsFree, readSshBanner } from '../access/net';
