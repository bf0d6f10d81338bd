import { execFile } from 'node:child_process';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import type { CatalogueImage, HostImageStatus } from '../../shared/contracts/images';
import type { ImageInventory } from '../driver';
import type { Log } from '../log';
import { downloadOnce, type FetchProgress, ImageFetchError } from './fetch';

const QCOW2_MAGIC = Buffer.from('QFI\xfb', 'latin1');

const run = promisify(execFile);

export interface ImageCacheOptions {
  /** `<AGENT_STATE_DIR>/images`. */
  dir: string;
  /** AGENT_IMAGE_CACHE_GIB in bytes: above it, images no instance uses are evicted. */
  limitBytes: number;
  qemuImgBinary: string;
  /** The files instances' overlays are backed by (absolute paths): never evicted. */
  inUse: () => Promise<Iterable<string>>;
  log?: Log;
  /** At most one progress call per this many ms per download (the last one always). */
  progressIntervalMs?: number;
  /** Attempts at one download, resuming each time, and the pause between them. */
  attempts?: number;
  retryDelayMs?: number;
  now?: () => number;
}

/** What a verified image's sidecar (`<name>.<sha256>.json`) remembers. */
interface Held {
  name: string;
  sha256: string;
  /** Size of the file held (the qcow2, after any conversion): a sidecar that disagrees is void. */
  bytes: number;
  lastUsedAt: number;
}

interface Fetching {
  name: string;
  sha256: string;
  progress: FetchProgress;
  listeners: Set<(p: FetchProgress) => void>;
  done: Promise<string>;
}

/**
 * The host's OS images under `<AGENT_STATE_DIR>/images/` (docs/architecture.md, "The image
 * cache"): fetched over HTTP(S) with resume, SHA-256 verified before anything boots them,
 * converted to qcow2 when the source is raw, kept within a size limit by evicting the least
 * recently used image no overlay is backed by. Files:
 *   `<name>.<sha256>.part`   a download in progress (resumed after an interruption or restart)
 *   `<name>.<sha256>.qcow2`  a verified image, the backing file of instance overlays
 *   `<name>.<sha256>.json`   its sidecar, written after verification (so a restart re-hashes
 *                            nothing), trusted only while the file's size matches
 */
export class ImageCache implements ImageInventory {
  private readonly held = new Map<string, Held>();
  private readonly fetching = new Map<string, Fetching>();
  private readonly failed = new Map<string, HostImageStatus>();
  /** Images handed out by ensure() whose overlay may not exist yet: not evicted meanwhile. */
  private readonly pinned = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly o: ImageCacheOptions) {
    this.now = o.now ?? Date.now;
  }

  /** Where a verified image lives (the overlays' backing file). */
  pathOf(name: string, sha256: string) {
    return path.join(this.o.dir, `${name}.${sha256}.qcow2`);
  }

  /** Reads the sidecars; drops what they do not vouch for. Parts stay, to be resumed. */
  async load(): Promise<void> {
    await mkdir(this.o.dir, { recursive: true, mode: 0o700 });
    const files = await readdir(this.o.dir);
    for (const file of files.filter((f) => f.endsWith('.json'))) {
      const sidecar = path.join(this.o.dir, file);
      const h = await readSidecar(sidecar);
      const size = h ? await sizeOf(this.pathOf(h.name, h.sha256)) : null;
      if (h && `${h.name}.${h.sha256}.json` === file && size === h.bytes) {
        this.held.set(key(h.name, h.sha256), h);
      } else {
        this.o.log?.('image-sidecar-void', { file });
        await rm(sidecar, { force: true });
      }
    }
    for (const file of files) {
      const m = /^(.+)\.([0-9a-f]{64})\.qcow2$/.exec(file);
      // An image without a sidecar was never verified (or its sidecar was void): not kept.
      const unvouched = m && !this.held.has(key(m[1] ?? '', m[2] ?? ''));
      if (unvouched || file.endsWith('.tmp'))
        await rm(path.join(this.o.dir, file), { force: true });
    }
  }

  /**
   * A qcow2 image may name other files — a backing file or an external data file — that QEMU
   * would open on the host when the guest boots. An image from a catalogue must stand alone:
   * one that names any is refused (docs/decisions/013: what comes from outside is checked).
   */
  private async refuseExternalFiles(file: string): Promise<void> {
    const head = Buffer.alloc(4);
    const handle = await open(file, 'r');
    try {
      await handle.read(head, 0, 4, 0);
    } finally {
      await handle.close();
    }
    if (!head.equals(QCOW2_MAGIC)) return;
    const { stdout } = await run(this.o.qemuImgBinary, [
      'info',
      '--output=json',
      '-f',
      'qcow2',
      file,
    ]);
    const info = JSON.parse(stdout) as {
      'backing-filename'?: string;
      'format-specific'?: { data?: { 'data-file'?: string } };
    };
    const named = info['backing-filename'] ?? info['format-specific']?.data?.['data-file'];
    if (named !== undefined) {
      await rm(file, { force: true });
      throw new ImageFetchError(`image refused: it names another file (${named.slice(0, 200)})`);
    }
  }

  /** True when a verified copy of the entry is held (no download needed). */
  holds(entry: Pick<CatalogueImage, 'name' | 'sha256'>): boolean {
    return entry.sha256 !== null && this.held.has(key(entry.name, entry.sha256));
  }

  /**
   * The path of a verified copy of `entry`, fetching it first when none is held. Callers of
   * the same image share one download. The image is pinned against eviction until
   * `release(path)` (call it once the overlay exists, or the boot gave up). `signal` only
   * stops this caller waiting: the shared download goes on.
   */
  async ensure(
    entry: CatalogueImage,
    onProgress: (p: FetchProgress) => void = () => {},
    signal?: AbortSignal,
  ): Promise<string> {
    if (!entry.url) {
      throw new ImageFetchError(
        `image ${entry.name} has no download source; only a host that holds it can run it`,
      );
    }
    if (!entry.sha256) {
      throw new ImageFetchError(`image ${entry.name} has no SHA-256 to verify it against`);
    }
    const k = key(entry.name, entry.sha256);
    const held = this.held.get(k);
    if (held) {
      this.pin(this.pathOf(entry.name, entry.sha256));
      await this.touch(held);
      return this.pathOf(entry.name, entry.sha256);
    }
    let f = this.fetching.get(k);
    if (!f) {
      const fetching: Fetching = {
        name: entry.name,
        sha256: entry.sha256,
        progress: { bytes: 0, totalBytes: entry.sizeBytes },
        listeners: new Set(),
        done: Promise.resolve(''),
      };
      fetching.done = this.fetch(entry, fetching).finally(() => this.fetching.delete(k));
      this.fetching.set(k, fetching);
      f = fetching;
    }
    f.listeners.add(onProgress);
    try {
      const file = await (signal ? raceAbort(f.done, signal) : f.done);
      this.pin(file);
      return file;
    } finally {
      f.listeners.delete(onProgress);
    }
  }

  /** The instance's overlay now names the image (or its boot ended): eviction may see it. */
  release(file: string) {
    const n = (this.pinned.get(file) ?? 0) - 1;
    if (n > 0) this.pinned.set(file, n);
    else this.pinned.delete(file);
  }

  /** Every image held, being fetched or failed: the heartbeat's `images`. */
  statuses(): HostImageStatus[] {
    const byName = new Map<string, HostImageStatus>();
    const mostRecent = [...this.held.values()].sort((a, b) => a.lastUsedAt - b.lastUsedAt);
    for (const h of mostRecent) {
      byName.set(h.name, {
        name: h.name,
        state: 'ready',
        sha256: h.sha256,
        bytes: h.bytes,
        totalBytes: h.bytes,
        error: null,
      });
    }
    // A failed or running fetch is news the server needs more than an older copy held.
    for (const s of this.failed.values()) byName.set(s.name, s);
    for (const f of this.fetching.values()) {
      byName.set(f.name, {
        name: f.name,
        state: 'fetching',
        sha256: f.sha256,
        bytes: f.progress.bytes,
        totalBytes: f.progress.totalBytes,
        error: null,
      });
    }
    return [...byName.values()].slice(0, 50);
  }

  private async fetch(entry: CatalogueImage, f: Fetching): Promise<string> {
    const { name, sha256 } = f;
    const base = path.join(this.o.dir, `${name}.${sha256}`);
    const part = `${base}.part`;
    const started = this.now();
    this.failed.delete(name);
    try {
      await mkdir(this.o.dir, { recursive: true, mode: 0o700 });
      await this.evict(entry.sizeBytes ?? 0);
      let lastEmit = Number.NEGATIVE_INFINITY;
      const interval = this.o.progressIntervalMs ?? 1000;
      const emit = (p: FetchProgress, force = false) => {
        f.progress = p;
        const t = this.now();
        if (!force && t - lastEmit < interval) return;
        lastEmit = t;
        for (const l of f.listeners) l(p);
      };
      const attempts = this.o.attempts ?? 5;
      let got: { sha256: string; bytes: number } | null = null;
      for (let attempt = 1; !got; attempt++) {
        try {
          got = await downloadOnce({
            url: entry.url ?? '',
            partPath: part,
            expectedBytes: entry.sizeBytes,
            onProgress: (p) => emit(p),
          });
        } catch (err) {
          const e = err as Error;
          this.o.log?.('image-fetch-interrupted', { name, attempt, error: e.message });
          const final = e instanceof ImageFetchError && !e.retryable;
          if (final || attempt >= attempts) {
            throw new ImageFetchError(`download failed: ${e.message}`);
          }
          await sleep(this.o.retryDelayMs ?? 2000 * attempt);
        }
      }
      emit({ bytes: got.bytes, totalBytes: f.progress.totalBytes ?? got.bytes }, true);
      if (got.sha256 !== sha256) {
        await rm(part, { force: true });
        throw new ImageFetchError(`checksum mismatch: expected ${sha256}, got ${got.sha256}`);
      }
      const final = this.pathOf(name, sha256);
      await this.refuseExternalFiles(part);
      if (entry.format === 'raw') {
        const tmp = `${final}.tmp`;
        await run(this.o.qemuImgBinary, ['convert', '-q', '-f', 'raw', '-O', 'qcow2', part, tmp]);
        await rename(tmp, final);
        await rm(part, { force: true });
      } else {
        await rename(part, final);
      }
      // A part of an older version of this image will never be resumed now.
      for (const file of await readdir(this.o.dir)) {
        if (file.startsWith(`${name}.`) && file.endsWith('.part') && !file.includes(sha256)) {
          await rm(path.join(this.o.dir, file), { force: true });
        }
      }
      const held: Held = { name, sha256, bytes: (await stat(final)).size, lastUsedAt: this.now() };
      await writeSidecar(`${base}.json`, held);
      this.held.set(key(name, sha256), held);
      this.o.log?.('image-ready', { name, sha256, bytes: held.bytes, ms: this.now() - started });
      this.pin(final);
      try {
        await this.evict(0);
      } finally {
        this.release(final);
      }
      return final;
    } catch (err) {
      const message = (err as Error).message.slice(0, 1000);
      this.failed.set(name, {
        name,
        state: 'failed',
        sha256,
        bytes: f.progress.bytes,
        totalBytes: f.progress.totalBytes,
        error: message,
      });
      this.o.log?.('image-failed', { name, sha256, error: message });
      throw err instanceof ImageFetchError ? err : new ImageFetchError(message);
    }
  }

  /**
   * Least recently used first, images no overlay is backed by and none pinned, until what is
   * held plus `room` fits the limit. An image in use is never evicted, even over the limit.
   */
  private async evict(room: number): Promise<void> {
    const total = () => [...this.held.values()].reduce((s, h) => s + h.bytes, 0);
    if (total() + room <= this.o.limitBytes) return;
    let inUse: Set<string>;
    try {
      inUse = new Set([...(await this.o.inUse())].map((p) => path.resolve(p)));
    } catch (err) {
      // Without knowing what overlays use, nothing is safe to delete: keep everything.
      this.o.log?.('image-evict-skipped', { error: (err as Error).message });
      return;
    }
    const candidates = [...this.held.values()].sort((a, b) => a.lastUsedAt - b.lastUsedAt);
    for (const h of candidates) {
      if (total() + room <= this.o.limitBytes) return;
      const file = this.pathOf(h.name, h.sha256);
      if (inUse.has(file) || this.pinned.has(file)) continue;
      this.held.delete(key(h.name, h.sha256));
      await rm(`${file.slice(0, -'.qcow2'.length)}.json`, { force: true });
      await rm(file, { force: true });
      this.o.log?.('image-evicted', { name: h.name, sha256: h.sha256, bytes: h.bytes });
    }
    if (total() + room > this.o.limitBytes) {
      this.o.log?.('image-cache-over-limit', { bytes: total(), limitBytes: this.o.limitBytes });
    }
  }

  private pin(file: string) {
    this.pinned.set(file, (this.pinned.get(file) ?? 0) + 1);
  }

  private async touch(h: Held) {
    h.lastUsedAt = this.now();
    await writeSidecar(path.join(this.o.dir, `${h.name}.${h.sha256}.json`), h).catch(() => {});
  }
}

const key = (name: string, sha256: string) => `${name}.${sha256}`;

async function readSidecar(file: string): Promise<Held | null> {
  try {
    const v = JSON.parse(await readFile(file, 'utf8')) as Partial<Held>;
    if (
      typeof v.name === 'string' &&
      typeof v.sha256 === 'string' &&
      /^[0-9a-f]{64}$/.test(v.sha256) &&
      Number.isSafeInteger(v.bytes) &&
      typeof v.lastUsedAt === 'number'
    ) {
      return { name: v.name, sha256: v.sha256, bytes: v.bytes as number, lastUsedAt: v.lastUsedAt };
    }
  } catch {
    // unreadable: void
  }
  return null;
}

async function writeSidecar(file: string, h: Held) {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(h), { mode: 0o600 });
  await rename(tmp, file);
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
