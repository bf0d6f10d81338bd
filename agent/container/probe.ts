import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ContainerProbe } from '../../shared/contracts/agent-protocol';
import type { Podman } from './podman';

const run = promisify(execFile);

/**
 * What the container driver finds on the host (shared/contracts/agent-protocol.ts
 * `containerProbe`): facts only; shared/rules/host-readiness.ts judges them. `trial` runs a
 * real container (`--check` only: it takes a second or two and needs an image), the rest is
 * cheap enough for every agent start.
 */
export async function probeContainers(o: {
  podman: Podman;
  /** Run a trial container from this image (held locally; nothing is pulled). */
  trial: boolean;
  trialImage?: string | null;
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
  let trial: ContainerProbe['trial'] = 'not-run';
  if (o.trial && !error) {
    if (!o.trialImage) {
      trial = 'failed';
      error = 'no image to run a trial container with';
    } else {
      try {
        const out = await o.podman.run(
          [
            'run',
            '--rm',
            '--userns',
            'auto',
            '--security-opt',
            'no-new-privileges',
            '--network',
            'none',
            '--ulimit',
            'nofile=1024:1024',
            '--ulimit',
            'nproc=1024:1024',
            o.trialImage,
            '/bin/sh',
            '-c',
            'echo rentgpu-trial',
          ],
          { timeoutMs: 120_000 },
        );
        trial = out.includes('rentgpu-trial') ? 'passed' : 'failed';
        if (trial === 'failed') error = `trial container printed: ${out.slice(0, 200)}`;
      } catch (err) {
        trial = 'failed';
        error = (err as Error).message.slice(0, 1000);
      }
    }
  }
  return {
    podman,
    runtime,
    error,
    trial,
    cdi: await cdiGpuDevices(o.cdiDirs ?? ['/etc/cdi', '/var/run/cdi'], kind),
    toolkitVersion: await toolkitVersion(o.nvidiaCtk ?? 'nvidia-ctk'),
    diskLimit: error
      ? { enforced: false, reason: 'podman does not answer' }
      : await diskLimitSupport(o.podman),
  };
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
