import { z } from 'zod';

/**
 * The OS image catalogue (issue 19; docs/decisions/015-os-images.md): every image the product
 * offers, with where a host fetches it and the SHA-256 it must have before it is ever booted.
 * The server owns the catalogue and hands it to agents in each heartbeat answer; templates
 * name the image they need; a host reports which images it holds, is fetching (with
 * progress) or failed to fetch (with the reason).
 */

export const IMAGE_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const imageName = z.string().regex(IMAGE_NAME_PATTERN, { message: 'Not an image name' });
export type ImageName = z.infer<typeof imageName>;

export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, { message: 'Not a SHA-256' });

const httpUrl = z
  .string()
  .max(2048)
  .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), {
    message: 'must be an http(s) URL',
  });

export const catalogueImage = z.object({
  name: imageName,
  /** What people read: "Ubuntu 22.04 LTS". */
  title: z.string().min(1).max(100),
  /**
   * Where a host fetches it (HTTP(S), resumable). null: the image has no public source; only a
   * host that already holds it can run it (windows11: a provider brings their own licence).
   */
  url: httpUrl.nullable(),
  /** Of the file at `url` as downloaded; a host never boots an image that does not match. */
  sha256: sha256Hex.nullable(),
  /** Of the file at `url`; null where the publisher does not state it (the hash still decides). */
  sizeBytes: z.number().int().min(1).nullable(),
  /** The file's format: `raw` is converted to qcow2 once, after it is verified. */
  format: z.enum(['qcow2', 'raw']),
  /** How it boots: `uefi` from its own disk with firmware (cloud images), `bios` likewise. */
  firmware: z.enum(['uefi', 'bios']),
});
export type CatalogueImage = z.infer<typeof catalogueImage>;

export const imageCatalogue = z.array(catalogueImage).max(50);
export type ImageCatalogue = z.infer<typeof imageCatalogue>;

/** The image the installer fetches onto a new host (install.sh; the agent's --fetch-image). */
export const DEFAULT_HOST_IMAGE: ImageName = 'ubuntu-22.04';

/** The catalogue's default host image: `ubuntu-22.04`, else the first entry with a source. */
export function defaultHostImage(catalogue: ImageCatalogue): CatalogueImage | undefined {
  return (
    catalogue.find((image) => image.name === DEFAULT_HOST_IMAGE && image.url !== null) ??
    catalogue.find((image) => image.url !== null)
  );
}

export const HOST_IMAGE_STATES = ['ready', 'fetching', 'failed'] as const;

/** One image on a host, as its agent reports it in every heartbeat. */
export const hostImageStatus = z.object({
  name: imageName,
  state: z.enum(HOST_IMAGE_STATES),
  /** The SHA-256 of what is held (ready), or being fetched. */
  sha256: sha256Hex.nullable(),
  /** Bytes downloaded so far (fetching) or held (ready). */
  bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** Bytes in all, when known. */
  totalBytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
  /** Why fetching failed (failed): a checksum mismatch, an HTTP status, no disk. */
  error: z.string().max(1000).nullable(),
});
export type HostImageStatus = z.infer<typeof hostImageStatus>;

/** Percent of an image fetched, 0–100 (0 while the size is unknown). */
export function fetchedPercent(status: Pick<HostImageStatus, 'bytes' | 'totalBytes'>): number {
  if (!status.totalBytes) return 0;
  return Math.min(100, Math.floor((status.bytes / status.totalBytes) * 100));
}

/**
 * Where an instance is on its way to ready, as its host reports it (instanceStatus.progress):
 * the server words it for renters ("downloading image (42%)"), never the host.
 */
export const PROVISIONING_STEPS = ['downloading-image', 'booting', 'running-setup'] as const;
export const provisioningProgress = z.object({
  step: z.enum(PROVISIONING_STEPS),
  /** 0–100 where the step can tell (downloading). */
  percent: z.number().int().min(0).max(100).nullable(),
});
export type ProvisioningProgress = z.infer<typeof provisioningProgress>;

/** The words renters read for a step: on the VM card, the dashboard and in the public API. */
export function provisioningStepText(progress: ProvisioningProgress): string {
  switch (progress.step) {
    case 'downloading-image':
      return `downloading image (${progress.percent ?? 0}%)`;
    case 'booting':
      return 'booting';
    case 'running-setup':
      return 'running setup';
  }
}
