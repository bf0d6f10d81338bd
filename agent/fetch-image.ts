import path from 'node:path';
import { type CatalogueImage, defaultHostImage, imageCatalogue } from '../shared/contracts/images';
import { ImageCache } from './images/cache';
import type { FetchProgress } from './images/fetch';

/**
 * `rentgpu-agent.mjs --fetch-image [NAME]`: the installer's one-shot fetch of the default
 * image (install.sh, ADR 014), through the same cache the running agent uses — the same
 * download with resume, SHA-256 check and sidecar — so the first rental finds the image held.
 * Reads the catalogue from the server's public route; without NAME it fetches the default
 * host image (`ubuntu-22.04`, else the catalogue's first with a source).
 */
export const CATALOGUE_PATH = '/api/providers/agent/images';

export interface FetchImageOptions {
  serverUrl: string;
  stateDir: string;
  /** null: the catalogue's default host image. */
  name: string | null;
  limitBytes: number;
  qemuImgBinary: string;
  /** A line for people (progress, the result). */
  out: (line: string) => void;
  progressIntervalMs?: number;
  attempts?: number;
  retryDelayMs?: number;
}

/** Why the one-shot fetch failed: the message the installer shows. */
export class FetchImageError extends Error {
  override name = 'FetchImageError';
}

/** Fetches and verifies the image; resolves with its path, or throws FetchImageError. */
export async function fetchImage(o: FetchImageOptions): Promise<string> {
  const entry = await pickImage(o.serverUrl, o.name);
  const dir = path.join(o.stateDir, 'images');
  const cache = new ImageCache({
    dir,
    limitBytes: o.limitBytes,
    qemuImgBinary: o.qemuImgBinary,
    // Which images instances' overlays use is the running agent's to know: a one-shot fetch
    // never evicts (ImageCache keeps everything when it cannot tell).
    inUse: () => Promise.reject(new Error('eviction is left to the running agent')),
    log: (event, fields) => {
      if (event === 'image-fetch-interrupted') {
        o.out(`transfer interrupted (${String(fields?.error)}); resuming`);
      }
    },
    progressIntervalMs: o.progressIntervalMs ?? 2000,
    ...(o.attempts !== undefined ? { attempts: o.attempts } : {}),
    ...(o.retryDelayMs !== undefined ? { retryDelayMs: o.retryDelayMs } : {}),
  });
  await cache.load();
  if (cache.holds(entry)) {
    const file = cache.pathOf(entry.name, entry.sha256 ?? '');
    o.out(`${entry.name} is already held and verified: ${file}`);
    return file;
  }
  const size = entry.sizeBytes === null ? 'size not stated' : mib(entry.sizeBytes);
  o.out(`fetching ${entry.name} (${entry.title}) from ${entry.url} (${size}) into ${dir}/`);
  o.out(`expected SHA-256 ${entry.sha256}`);
  let file: string;
  try {
    file = await cache.ensure(entry, (p) => o.out(progressLine(entry.name, p)));
  } catch (error) {
    throw new FetchImageError(`${entry.name}: ${(error as Error).message}`);
  }
  o.out(`${entry.name} verified (SHA-256 ${entry.sha256}): ${file}`);
  return file;
}

async function pickImage(serverUrl: string, name: string | null): Promise<CatalogueImage> {
  const url = new URL(CATALOGUE_PATH, serverUrl).toString();
  let json: unknown;
  try {
    const res = await fetch(url, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    json = await res.json();
  } catch (error) {
    throw new FetchImageError(
      `could not read the image catalogue from ${url}: ${(error as Error).message}`,
    );
  }
  const parsed = imageCatalogue.safeParse(json);
  if (!parsed.success) {
    throw new FetchImageError(`the server's image catalogue (${url}) is not one this agent reads`);
  }
  const catalogue = parsed.data;
  const entry =
    name === null ? defaultHostImage(catalogue) : catalogue.find((image) => image.name === name);
  if (!entry) {
    const names = catalogue.map((image) => image.name).join(', ') || 'none';
    throw new FetchImageError(
      name === null
        ? `the server's image catalogue has no image with a download source (images: ${names})`
        : `image ${name} is not in the server's catalogue (images: ${names})`,
    );
  }
  if (!entry.url || !entry.sha256) {
    throw new FetchImageError(
      `image ${entry.name} has no download source and SHA-256 in the catalogue; only a host that already holds it can run it`,
    );
  }
  return entry;
}

function progressLine(name: string, p: FetchProgress): string {
  if (p.totalBytes === null) return `${name}: ${mib(p.bytes)}`;
  const percent = p.totalBytes > 0 ? Math.min(100, Math.floor((p.bytes / p.totalBytes) * 100)) : 0;
  return `${name}: ${mib(p.bytes)} of ${mib(p.totalBytes)} (${percent}%)`;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}
