import { type ChildProcess, spawn } from 'node:child_process';
import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../scripts/free-port.mjs';

/**
 * A real OCI registry on 127.0.0.1 for tests and `npm run bench:containers`: Debian's
 * `docker-registry` (distribution 2.8) with a storage folder and config of its own, and a
 * registries.conf marking it insecure (plain HTTP) for the podman processes that are given
 * `env` (CONTAINERS_REGISTRIES_CONF). Not part of the agent.
 */
export const REGISTRY_BINARY = '/usr/bin/docker-registry';

export interface LocalRegistry {
  /** `127.0.0.1:<port>`: image references are `<host>/<name>:<tag>`. */
  host: string;
  /** For podman: `CONTAINERS_REGISTRIES_CONF` naming this registry insecure. */
  env: Record<string, string>;
  dir: string;
  stop(): Promise<void>;
}

export async function hasRegistryBinary(binary = REGISTRY_BINARY): Promise<boolean> {
  return access(binary).then(
    () => true,
    () => false,
  );
}

export async function startLocalRegistry(
  o: { binary?: string; parentDir?: string } = {},
): Promise<LocalRegistry> {
  const dir = await mkdtemp(path.join(o.parentDir ?? os.tmpdir(), 'rentgpu-registry-'));
  await mkdir(path.join(dir, 'data'));
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  await writeFile(
    path.join(dir, 'config.yml'),
    [
      'version: 0.1',
      'log:',
      '  level: warn',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${path.join(dir, 'data')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: ${host}`,
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir, 'registries.conf'),
    `[[registry]]\nlocation = "${host}"\ninsecure = true\n`,
  );
  const child: ChildProcess = spawn(o.binary ?? REGISTRY_BINARY, ['serve', 'config.yml'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-2000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ok = await fetch(`http://${host}/v2/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`docker-registry did not start on ${host}: ${stderr.trim()}`);
    }
    await sleep(100);
  }
  return {
    host,
    env: { CONTAINERS_REGISTRIES_CONF: path.join(dir, 'registries.conf') },
    dir,
    stop,
  };
}
