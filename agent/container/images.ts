import type { CatalogueImage, HostImageStatus } from '../../shared/contracts/images';
import { DriverError, type ImageInventory, type ImageProgress } from '../driver';
import { type Podman, PodmanError } from './podman';
import { watchPull } from './pull-progress';

type OnProgress = (p: ImageProgress) => void;

/** An OCI image as the host holds it: what a container is created from and what it reports. */
export interface ResolvedImage {
  reference: string;
  /** The local image id (`sha256:` of its config): what the container is created from. */
  id: string;
  /**
   * The manifest digest (`podman image inspect {{.Digest}}`): what the renter sees, because
   * `<reference>@<digest>` pulls exactly this image again anywhere (the id does not).
   */
  digest: string;
  sizeBytes: number;
}

/**
 * The podman store as the host's images (agent/driver.ts `ImageInventory`). Containers do not
 * run catalogue (qcow2) images: the catalogue methods answer "not held" and refuse, and a
 * container's OCI image is pulled by `resolve` during its create. A pull that failed (unknown
 * image, no access, over the size limit) is remembered for `failedPullMs`: a create repeated
 * meanwhile fails at once with the same reason instead of asking the registry again.
 */
export class PodmanImages implements ImageInventory {
  private readonly failed = new Map<string, { error: string; at: number }>();
  private readonly pulling = new Map<
    string,
    { image: Promise<ResolvedImage>; listeners: Set<OnProgress> }
  >();

  constructor(
    private readonly podman: Podman,
    private readonly o: {
      maxImageBytes: number;
      failedPullMs: number;
      pullTimeoutMs: number;
      /** How often a pull's bytes are measured [500 ms]. */
      pullProgressMs?: number;
      /** Where each pull's own TMPDIR is made (AGENT_PULL_TMPDIR) [/var/tmp: as containers/image]. */
      pullTmpDir?: string;
    },
  ) {}

  async load(): Promise<void> {}
  holds(_image: Pick<CatalogueImage, 'name' | 'sha256'>): boolean {
    return false;
  }
  ensure(image: CatalogueImage): Promise<string> {
    return Promise.reject(
      new DriverError(`image ${image.name} is a VM image; containers run OCI images`),
    );
  }
  release(_reference: string): void {}
  statuses(): HostImageStatus[] {
    return [];
  }

  /** Whether the store holds `reference` already (create → ready without a pull). */
  holdsReference(reference: string): Promise<boolean> {
    return this.podman.exists('image', reference);
  }

  /**
   * The image for `reference`, pulled first when the store does not hold it. One pull per
   * reference at a time: every caller's `onProgress` hears it, `{bytes, totalBytes}` of the
   * compressed download (pull-progress.ts: the manifest's layer sizes, the pull's own TMPDIR
   * measured every 500 ms; `totalBytes` null while unknown), then the image's size at the end.
   */
  resolve(
    reference: string,
    o: { signal?: AbortSignal; onProgress?: OnProgress } = {},
  ): Promise<ResolvedImage> {
    const failed = this.failed.get(reference);
    if (failed && Date.now() - failed.at < this.o.failedPullMs) {
      return Promise.reject(new DriverError(failed.error));
    }
    const running = this.pulling.get(reference);
    if (running) {
      const listen = o.onProgress;
      if (!listen) return running.image;
      running.listeners.add(listen);
      return running.image.finally(() => running.listeners.delete(listen));
    }
    const listeners = new Set<OnProgress>(o.onProgress ? [o.onProgress] : []);
    const tell: OnProgress = (p) => {
      for (const listen of listeners) {
        try {
          listen(p);
        } catch {
          // a listener's failure is not the pull's
        }
      }
    };
    const image = this.pullAndInspect(reference, { ...o, onProgress: tell }).finally(() =>
      this.pulling.delete(reference),
    );
    this.pulling.set(reference, { image, listeners });
    return image;
  }

  private async pullAndInspect(
    reference: string,
    o: { signal?: AbortSignal; onProgress: OnProgress },
  ): Promise<ResolvedImage> {
    try {
      if (!(await this.podman.exists('image', reference))) {
        o.onProgress({ bytes: 0, totalBytes: null });
        const watch = await watchPull({
          podman: this.podman,
          reference,
          onProgress: o.onProgress,
          ...(this.o.pullProgressMs ? { intervalMs: this.o.pullProgressMs } : {}),
          ...(this.o.pullTmpDir ? { parentDir: this.o.pullTmpDir } : {}),
        });
        try {
          await this.podman.run(['pull', '--quiet', reference], {
            timeoutMs: this.o.pullTimeoutMs,
            env: watch.env,
            ...(o.signal ? { signal: o.signal } : {}),
          });
        } finally {
          await watch.stop();
        }
      }
      const [info] = await this.podman.json<
        { Id: string; Digest: string; Size: number; RepoDigests?: string[] }[]
      >(['image', 'inspect', reference]);
      if (!info) throw new DriverError(`image ${reference} not found after pulling it`);
      const image: ResolvedImage = {
        reference,
        id: info.Id.startsWith('sha256:') ? info.Id : `sha256:${info.Id}`,
        digest: info.Digest,
        sizeBytes: info.Size,
      };
      o.onProgress({ bytes: image.sizeBytes, totalBytes: image.sizeBytes });
      if (image.sizeBytes > this.o.maxImageBytes) {
        await this.podman.run(['rmi', reference]).catch(() => {});
        throw new DriverError(
          `image ${reference} is ${gib(image.sizeBytes)} GiB, over this host's limit of ${gib(this.o.maxImageBytes)} GiB`,
        );
      }
      return image;
    } catch (err) {
      if (o.signal?.aborted) throw new DriverError('boot superseded');
      const reason =
        err instanceof PodmanError
          ? `image ${reference} cannot be pulled: ${err.message.replace(/^podman \w+ failed: /, '')}`
          : (err as Error).message;
      this.failed.set(reference, { error: reason, at: Date.now() });
      throw new DriverError(reason);
    }
  }
}

const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(1);
