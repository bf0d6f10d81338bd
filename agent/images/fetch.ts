import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';

/** Why an image could not be fetched: the words the host reports (an HTTP status, a size). */
export class ImageFetchError extends Error {
  override name = 'ImageFetchError';
  /** false: trying again would get the same answer (a 404, a file larger than stated). */
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

export interface FetchProgress {
  bytes: number;
  /** From the catalogue's sizeBytes, else the server's Content-Length / Content-Range. */
  totalBytes: number | null;
}

export interface DownloadOptions {
  url: string;
  /** Where the bytes go; what is already there is resumed with a Range request. */
  partPath: string;
  /** The catalogue's size: a part or a transfer past it starts again / fails. */
  expectedBytes: number | null;
  onProgress: (p: FetchProgress) => void;
  signal?: AbortSignal;
}

export interface Downloaded {
  sha256: string;
  bytes: number;
}

/**
 * One attempt at completing `partPath` from `url`, hashing as it goes. A part left by an
 * interrupted attempt (or an agent restart) is hashed first and resumed with
 * `Range: bytes=N-`: a 206 appends, a 200 means the server ignored the range and the file
 * starts again, a 416 (or a part already past the stated size) starts again. Throws on a
 * broken transfer with the part kept, so the next attempt resumes where this one stopped
 * (a network error, or an ImageFetchError that is `retryable`).
 */
export async function downloadOnce(o: DownloadOptions): Promise<Downloaded> {
  let offset = await sizeOf(o.partPath);
  if (o.expectedBytes !== null && offset > o.expectedBytes) {
    await rm(o.partPath, { force: true });
    offset = 0;
  }
  let hash = createHash('sha256');
  if (offset > 0) await hashFile(o.partPath, hash);
  if (o.expectedBytes !== null && offset === o.expectedBytes) {
    // Complete already (a crash between the last byte and the rename): verify, do not ask.
    return { sha256: hash.digest('hex'), bytes: offset };
  }

  let res = await request(o.url, offset, o.signal);
  if (res.status === 416 && offset > 0) {
    await res.body?.cancel();
    await rm(o.partPath, { force: true });
    offset = 0;
    hash = createHash('sha256');
    res = await request(o.url, 0, o.signal);
  }
  if (res.status === 206 && offset > 0) {
    const start = /^bytes (\d+)-/.exec(res.headers.get('content-range') ?? '')?.[1];
    if (Number(start) !== offset) {
      // Not the range asked for: the next attempt starts from zero.
      await res.body?.cancel();
      await rm(o.partPath, { force: true });
      throw new ImageFetchError(
        `the server resumed at the wrong offset (${start ?? 'none'})`,
        true,
      );
    }
  } else if (res.status === 200) {
    if (offset > 0) {
      offset = 0;
      hash = createHash('sha256');
    }
  } else {
    await res.body?.cancel();
    const transient = res.status >= 500 || res.status === 408 || res.status === 429;
    throw new ImageFetchError(`HTTP ${res.status} from ${safeUrl(o.url)}`, transient);
  }
  if (!res.body) throw new ImageFetchError(`empty answer from ${safeUrl(o.url)}`, true);

  const totalBytes = o.expectedBytes ?? announcedTotal(res, offset);
  let bytes = offset;
  o.onProgress({ bytes, totalBytes });
  const file = await open(o.partPath, offset > 0 ? 'a' : 'w', 0o600);
  try {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      if (o.expectedBytes !== null && bytes > o.expectedBytes) {
        await file.close().catch(() => {});
        await rm(o.partPath, { force: true });
        throw new ImageFetchError(
          `the download is larger than the catalogue's ${o.expectedBytes} bytes`,
        );
      }
      hash.update(chunk);
      await file.write(chunk);
      o.onProgress({ bytes, totalBytes });
    }
    await file.sync();
  } finally {
    await file.close().catch(() => {});
  }
  if (o.expectedBytes !== null && bytes < o.expectedBytes) {
    throw new ImageFetchError(`the transfer ended at ${bytes} of ${o.expectedBytes} bytes`, true);
  }
  return { sha256: hash.digest('hex'), bytes };
}

function request(url: string, offset: number, signal?: AbortSignal) {
  return fetch(url, {
    headers: offset > 0 ? { range: `bytes=${offset}-` } : {},
    redirect: 'follow',
    signal: signal ?? null,
  });
}

function announcedTotal(res: Response, offset: number): number | null {
  const range = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1];
  if (range) return Number(range);
  const length = Number(res.headers.get('content-length'));
  return Number.isSafeInteger(length) && length > 0 ? offset + length : null;
}

/** A URL as it may appear in an error a renter could read: no credentials, no query. */
function safeUrl(url: string) {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

async function sizeOf(file: string) {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}

export async function hashFile(file: string, hash: Hash = createHash('sha256')): Promise<Hash> {
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash;
}
