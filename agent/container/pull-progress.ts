import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ImageProgress } from '../driver';
import type { Podman } from './podman';

/**
 * How far a `podman pull` is, in bytes (docs/decisions/025, "Pull progress"). Podman's CLI
 * prints no byte counts without a terminal, so:
 * - the total is the sum of the compressed layer sizes in the image's registry manifest
 *   (`podman manifest inspect`; for a manifest list, the entry for this host's platform);
 * - the bytes so far are the sizes of the files under the pull's own temporary folder:
 *   containers/image copies every blob through a file in `$TMPDIR` (measured, podman 4.3.1:
 *   `<TMPDIR>/storage<random>/<n>`, one file per layer, growing as it downloads) unless the
 *   host's containers.conf sets `image_copy_tmp_dir` — then nothing is seen and it stays 0%.
 * Nothing here fails a pull: whatever cannot be measured is reported as unknown.
 */

/** One image manifest or manifest list, as much of it as the sizes need. */
interface ManifestLike {
  layers?: { size?: unknown }[];
  manifests?: { digest?: unknown; platform?: { os?: unknown; architecture?: unknown } }[];
}

/** What a manifest says about the download: its total, another manifest to read, or nothing. */
export type ManifestSizes =
  | { kind: 'total'; bytes: number }
  | { kind: 'list'; digest: string }
  | { kind: 'unknown' };

/** Node's `process.arch` in OCI's words (the manifest list's `platform.architecture`). */
export function ociArch(arch: string = process.arch): string {
  return (
    { x64: 'amd64', ia32: '386', arm: 'arm', arm64: 'arm64', ppc64: 'ppc64le', s390x: 's390x' }[
      arch
    ] ?? arch
  );
}

/**
 * The compressed bytes an image's manifest makes a pull download (its layers' `size`), or,
 * for a manifest list (OCI index, Docker manifest list), the digest of the manifest for
 * `linux/<arch>`. Schema 1 manifests (no sizes) and anything else: unknown.
 */
export function manifestSizes(manifest: unknown, arch: string = ociArch()): ManifestSizes {
  if (!manifest || typeof manifest !== 'object') return { kind: 'unknown' };
  const m = manifest as ManifestLike;
  if (Array.isArray(m.layers)) {
    let bytes = 0;
    for (const layer of m.layers) {
      const size = layer?.size;
      if (typeof size !== 'number' || !Number.isFinite(size) || size < 0) {
        return { kind: 'unknown' };
      }
      bytes += size;
    }
    return bytes > 0 ? { kind: 'total', bytes } : { kind: 'unknown' };
  }
  if (Array.isArray(m.manifests)) {
    const entry = m.manifests.find(
      (e) => e?.platform?.os === 'linux' && e.platform.architecture === arch,
    );
    const digest = entry?.digest;
    return typeof digest === 'string' && /^sha256:[a-f0-9]{64}$/.test(digest)
      ? { kind: 'list', digest }
      : { kind: 'unknown' };
  }
  return { kind: 'unknown' };
}

/**
 * The manifest `podman manifest inspect` gave: its output, or — podman 4.3 refuses a single
 * image's manifest ("Treating single images as manifest lists is not implemented") after
 * quoting it whole in its error, `parsing manifest blob "<Go-quoted JSON>"` — the manifest
 * taken from that error. Null when neither holds one.
 */
export function manifestFromInspect(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed);
    } catch {
      // not JSON: maybe an error quoting it
    }
  }
  const quoted = /parsing manifest blob ("(?:[^"\\]|\\.)*")/.exec(text)?.[1];
  if (!quoted) return null;
  try {
    // Go's %q of ASCII JSON is a JSON string literal; anything else (\x..) is not trusted.
    return JSON.parse(JSON.parse(quoted) as string);
  } catch {
    return null;
  }
}

/** `reference` pinned to `digest`: its tag (and any digest) replaced. */
export function withDigest(reference: string, digest: string): string {
  let name = reference.split('@')[0] ?? reference;
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) name = name.slice(0, colon);
  return `${name}@${digest}`;
}

/** Percent of a pull, 0–99 while it runs (100 only once it ended); 0 while the total is unknown. */
export function pullPercent(bytes: number, totalBytes: number | null): number {
  if (!totalBytes || totalBytes <= 0 || !Number.isFinite(bytes) || bytes <= 0) return 0;
  return Math.min(99, Math.floor((bytes / totalBytes) * 100));
}

/** The compressed bytes pulling `reference` downloads, from its registry manifest; null: unknown. */
export async function pullTotalBytes(
  podman: Podman,
  reference: string,
  o: { timeoutMs?: number; arch?: string } = {},
): Promise<number | null> {
  const inspect = async (ref: string) => {
    try {
      return manifestFromInspect(
        await podman.run(['manifest', 'inspect', ref], {
          timeoutMs: o.timeoutMs ?? 60_000,
        }),
      );
    } catch (err) {
      return manifestFromInspect((err as { stderr?: string }).stderr ?? '');
    }
  };
  let sizes = manifestSizes(await inspect(reference), o.arch);
  if (sizes.kind === 'list') {
    sizes = manifestSizes(await inspect(withDigest(reference, sizes.digest)), o.arch);
  }
  return sizes.kind === 'total' ? sizes.bytes : null;
}

/** The bytes of the files under `dir` (recursively); files that vanish meanwhile count 0. */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile())
      total += await stat(p).then(
        (s) => s.size,
        () => 0,
      );
  }
  return total;
}

/**
 * Watches one pull: `env` is what the `podman pull` runs with besides (its own `TMPDIR`), `onProgress`
 * hears `{bytes, totalBytes}` every `intervalMs` while they change; `stop()` ends it and removes
 * the folder. Without a folder (mkdtemp failed) the pull runs as before and reports nothing.
 */
export async function watchPull(o: {
  podman: Podman;
  reference: string;
  /** Where the pull's folder is made (AGENT_PULL_TMPDIR): where containers/image puts its blobs [/var/tmp]. */
  parentDir?: string;
  intervalMs?: number;
  onProgress: (p: ImageProgress) => void;
}): Promise<{ env: Record<string, string>; stop: () => Promise<void> }> {
  const parent = o.parentDir ?? '/var/tmp';
  const dir = await mkdtemp(path.join(parent, 'rentgpu-pull-')).catch(() => null);
  if (!dir) return { env: {}, stop: async () => {} };
  let total: number | null = null;
  let stopped = false;
  let last = -1;
  let lastTotal: number | null = null;
  void pullTotalBytes(o.podman, o.reference)
    .then((t) => (total = t))
    .catch(() => {});
  const tick = async () => {
    if (stopped) return;
    const bytes = await folderBytes(dir).catch(() => 0);
    if (stopped || (bytes === last && total === lastTotal)) return;
    last = bytes;
    lastTotal = total;
    try {
      o.onProgress({ bytes, totalBytes: total });
    } catch {
      // a listener's failure is not the pull's
    }
  };
  let ticking: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    ticking = ticking.then(tick);
  }, o.intervalMs ?? 500);
  timer.unref?.();
  return {
    env: { TMPDIR: dir },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await ticking.catch(() => {});
      await rm(dir, { recursive: true, force: true }).catch(() => {});
    },
  };
}
