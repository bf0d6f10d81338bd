import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ContainerProbe } from '../../shared/contracts/agent-protocol';
import { isolationArgs } from './args';
import { hardLimits, type Podman } from './podman';
import { ensureBundle, MOUNT } from './ssh';

const run = promisify(execFile);

/**
 * What the container driver finds on the host (shared/contracts/agent-protocol.ts
 * `containerProbe`): facts only; shared/rules/host-readiness.ts judges them. `trial` runs a
 * real container (`--check` only: it takes a second or two), the rest is cheap enough for
 * every agent start.
 */
export async function probeContainers(o: {
  podman: Podman;
  /** Run a trial container (`trialContainer`). */
  trial: boolean;
  /** Run the trial from this image (held locally; nothing is pulled) instead of the bundle. */
  trialImage?: string | null;
  /** The agent's SSH bundle (ssh.ts `ensureBundle`): the trial runs its dropbear. */
  sshBundle?: { dir: string; dropbear: string } | null;
  cdiKind?: string;
  cdiDirs?: readonly string[];
  nvidiaCtk?: string;
}): Promise<ContainerProbe> {
  const kind = o.cdiKind ?? 'nvidia.com/gpu';
  let podman: string | null = null;
  let runtime: string | null = null;
  let error: string | null = null;
  try {
    const info = JSON.parse(
      await o.podman.run(['info', '--format', 'json'], { timeoutMs: 30_000 }),
    );
    podman = String(info?.version?.Version ?? '') || null;
    const rt = info?.host?.ociRuntime;
    runtime = rt
      ? `${rt.name ?? 'runtime'} ${firstVersion(String(rt.version ?? ''))}`.trim()
      : null;
  } catch (err) {
    error = (err as Error).message.slice(0, 1000);
  }
  // Only `podman info` failing means podman does not answer: a failed trial says nothing about
  // the storage driver (before, a trial with no image reported the disk limit as "podman does
  // not answer").
  const answers = !error;
  let trial: ContainerProbe['trial'] = 'not-run';
  if (o.trial && answers) {
    const why = await trialContainer(o.podman, o);
    trial = why === null ? 'passed' : 'failed';
    error = why;
  }
  return {
    podman,
    runtime,
    error,
    trial,
    cdi: await cdiGpuDevices(o.cdiDirs ?? ['/etc/cdi', '/var/run/cdi'], kind),
    toolkitVersion: await toolkitVersion(o.nvidiaCtk ?? 'nvidia-ctk'),
    diskLimit: answers
      ? await diskLimitSupport(o.podman)
      : { enforced: false, reason: 'podman does not answer' },
  };
}

/**
 * The isolation every instance's container gets (args.ts `createArgs`), on a container that
 * needs no network: `--userns=auto` (the `containers:` ranges in /etc/subuid), no new
 * privileges, `--init` (catatonit), the cgroup limits and the agent's rlimits. No GPU.
 */
async function trialFlags(): Promise<string[]> {
  const limits = await hardLimits();
  return [
    '--rm',
    ...isolationArgs({ pidsLimit: 64, cpus: 1, memoryMib: 256, limits }),
    '--network',
    'none',
  ];
}

/**
 * Runs a trial container; null when it ran, else why not (podman's or the runtime's words).
 * With a trial image: `/bin/sh -c 'echo …'` in it. Without (a fresh host holds none): the
 * agent's SSH bundle, rebuilt as at agent start, mounted read-only at `/.rentgpu` as every
 * instance's is, and its dropbear run through the bundle's loader with `-V` (prints its
 * version, exits 0) — so the trial also finds a dropbear that cannot be bundled, a bundle the
 * container's root cannot read or a state folder mounted noexec. Its root file system is an
 * image imported from an empty tar (1 KiB, removed after): `podman run --rootfs` would need no
 * image, but podman 4.3.1 gives a `--rootfs` container no id maps under `--userns=auto`
 * ("runc create failed: User namespaces enabled, but no uid mappings found"; tried), and the
 * trial must try the same user namespaces the driver's containers get.
 */
export async function trialContainer(
  podman: Podman,
  o: { trialImage?: string | null; sshBundle?: { dir: string; dropbear: string } | null },
): Promise<string | null> {
  const fail = (err: unknown) => (err as Error).message.slice(0, 1000);
  if (o.trialImage) {
    try {
      const out = await podman.run(
        ['run', ...(await trialFlags()), o.trialImage, '/bin/sh', '-c', 'echo rentgpu-trial'],
        { timeoutMs: 120_000 },
      );
      return out.includes('rentgpu-trial') ? null : `trial container printed: ${out.slice(0, 200)}`;
    } catch (err) {
      return fail(err);
    }
  }
  if (!o.sshBundle) return 'no image and no SSH bundle to run a trial container with';
  const { dir, dropbear } = o.sshBundle;
  try {
    await ensureBundle(dir, dropbear);
  } catch (err) {
    return `the SSH bundle cannot be made: ${fail(err)}`;
  }
  let image: string | null = null;
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'rentgpu-trial-'));
  try {
    const tar = path.join(tmp, 'empty.tar');
    await writeFile(tar, Buffer.alloc(1024)); // two zero blocks: an empty tar archive
    image =
      (await podman.run(['import', '--quiet', tar], { timeoutMs: 60_000 }))
        .trim()
        .split('\n')
        .at(-1) || null;
    if (!image) return 'podman import printed no image id';
    await podman.run(
      [
        'run',
        ...(await trialFlags()),
        '--volume',
        `${dir}:${MOUNT}:ro`,
        '--entrypoint',
        `${MOUNT}/lib/ld.so`,
        image,
        '--library-path',
        `${MOUNT}/lib`,
        `${MOUNT}/bin/dropbear`,
        '-V',
      ],
      { timeoutMs: 120_000 },
    );
    return null;
  } catch (err) {
    return fail(err);
  } finally {
    await rm(tmp, { recursive: true, force: true });
    if (image) await podman.run(['rmi', '--force', image], { timeoutMs: 60_000 }).catch(() => {});
  }
}

function firstVersion(text: string): string {
  return text.match(/\d+\.\d+(?:\.\d+)?(?:[+~-][\w.+~-]*)?/)?.[0] ?? '';
}

/** `nvidia-ctk --version` → `1.17.8`; null where it is missing. */
async function toolkitVersion(binary: string): Promise<string | null> {
  try {
    const { stdout } = await run(binary, ['--version'], { timeout: 10_000 });
    return stdout.match(/version\s+v?(\d+\.\d+\.\d+[\w.~+-]*)/i)?.[1]?.slice(0, 40) ?? null;
  } catch {
    return null;
  }
}

/**
 * The device names of `kind` in the CDI spec files (`*.json`, `*.yaml`, `*.yml`). JSON is
 * parsed; YAML by the few lines a spec needs (`kind:` and each device's `- name:`), since the
 * agent's bundle carries no YAML library and nvidia-ctk writes these keys plainly.
 */
export async function cdiGpuDevices(
  dirs: readonly string[],
  kind: string,
): Promise<ContainerProbe['cdi']> {
  const devices = new Set<string>();
  const problems: string[] = [];
  let read = 0;
  for (const dir of dirs) {
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files.filter((f) => /\.(json|ya?ml)$/.test(f)).sort()) {
      try {
        const text = await readFile(path.join(dir, file), 'utf8');
        const spec = file.endsWith('.json') ? jsonSpec(text) : yamlSpec(text);
        read++;
        if (spec.kind === kind) for (const d of spec.devices) devices.add(d);
      } catch (err) {
        problems.push(`${path.join(dir, file)}: ${(err as Error).message}`);
      }
    }
  }
  const error =
    read > 0
      ? null
      : problems.length > 0
        ? problems.join('; ')
        : `no CDI spec in ${dirs.join(' or ')}`;
  return { gpuDevices: [...devices].slice(0, 256), error: error?.slice(0, 1000) ?? null };
}

function jsonSpec(text: string): { kind: string; devices: string[] } {
  const v = JSON.parse(text) as { kind?: unknown; devices?: { name?: unknown }[] };
  if (typeof v.kind !== 'string') throw new Error('no kind');
  return {
    kind: v.kind,
    devices: (v.devices ?? []).map((d) => d.name).filter((n): n is string => typeof n === 'string'),
  };
}

/** `kind: x` at the top level; `- name: y` items directly under the top-level `devices:`. */
export function yamlSpec(text: string): { kind: string; devices: string[] } {
  let kind: string | null = null;
  const devices: string[] = [];
  let inDevices = false;
  let itemIndent: number | null = null;
  const unquote = (s: string) => s.trim().replace(/^(['"])(.*)\1$/, '$2');
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '');
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    // nvidia-ctk (Go's YAML) writes a list's items at its key's own indent: `devices:` then
    // `- containerEdits:` at column 0, each item's `name:` at column 2.
    if (indent === 0 && !(inDevices && /^-(\s|$)/.test(line))) {
      inDevices = /^devices:\s*$/.test(line);
      itemIndent = null;
      const k = line.match(/^kind:\s*(.+)$/);
      if (k?.[1]) kind = unquote(k[1]);
      continue;
    }
    if (!inDevices) continue;
    const item = line.match(/^(\s*)-(?:\s+(.*))?$/);
    if (item) {
      itemIndent ??= item[1]?.length ?? 0;
      if ((item[1]?.length ?? 0) !== itemIndent) continue;
      const name = (item[2] ?? '').match(/^name:\s*(.+)$/);
      if (name?.[1]) devices.push(unquote(name[1]));
    } else if (itemIndent !== null && indent === itemIndent + 2) {
      const name = line.trim().match(/^name:\s*(.+)$/);
      if (name?.[1]) devices.push(unquote(name[1]));
    }
  }
  if (!kind) throw new Error('no kind');
  return { kind, devices };
}

/**
 * Whether `--storage-opt size=` can hold a container's writable layer: podman's overlay driver
 * does it with project quotas on xfs (mounted pquota); vfs and overlay on other file systems
 * cannot. The reason is shown to the provider.
 */
export async function diskLimitSupport(podman: Podman): Promise<ContainerProbe['diskLimit']> {
  try {
    const out = await podman.run(
      [
        'info',
        '--format',
        '{{.Store.GraphDriverName}}\t{{index .Store.GraphStatus "Backing Filesystem"}}',
      ],
      { timeoutMs: 30_000 },
    );
    const [driver = '', fs = ''] = out.trim().split('\t');
    if (driver === 'btrfs' || driver === 'zfs') return { enforced: true, reason: null };
    if (driver === 'overlay' && fs === 'xfs') return { enforced: true, reason: null };
    return {
      enforced: false,
      reason:
        `podman's ${driver || 'unknown'} storage on ${fs || 'an unknown file system'} cannot limit a container's disk (it needs xfs with project quotas, or btrfs)`.slice(
          0,
          500,
        ),
    };
  } catch (err) {
    return { enforced: false, reason: (err as Error).message.slice(0, 500) };
  }
}
