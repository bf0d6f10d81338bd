import {
  type CatalogueImage,
  type ImageCatalogue,
  type ImageName,
  imageCatalogue,
} from '../../../shared/contracts/images';
import { readConfigFile } from '../../lib/config-file';

/**
 * The OS image catalogue the server owns (docs/decisions/015-os-images.md): every image the
 * product offers, where a host fetches it and the SHA-256 it must have. Hosts learn it from
 * every heartbeat answer; which image an instance needs follows from its template.
 */

export const UBUNTU_IMAGE: ImageName = 'ubuntu-22.04';
export const WINDOWS_IMAGE: ImageName = 'windows-11';

/**
 * The default catalogue. Ubuntu's pinned release (not `current`, which moves), with the SHA-256
 * two independent public sources quote for release-20240912's image; its size is not stated
 * here (null: the hash decides). Windows 11 has no public source
 * (a provider brings their own licence): only a host that already holds it can run it.
 */
export const DEFAULT_IMAGE_CATALOGUE: ImageCatalogue = [
  {
    name: UBUNTU_IMAGE,
    title: 'Ubuntu 22.04 LTS',
    url: 'https://cloud-images.ubuntu.com/releases/22.04/release-20240912/ubuntu-22.04-server-cloudimg-amd64.img',
    sha256: '5da0b3d37d02ca6c6760caa4041b4df14e08abc7bc9b2db39133eef8ee145f6d',
    sizeBytes: null,
    format: 'qcow2',
    firmware: 'uefi',
  },
  {
    name: WINDOWS_IMAGE,
    title: 'Windows 11',
    url: null,
    sha256: null,
    sizeBytes: null,
    format: 'qcow2',
    firmware: 'uefi',
  },
];

/**
 * The image a template needs: windows11 → windows-11; ubuntu22, every Instant Deploy template
 * and a marketplace rental (no template) → ubuntu-22.04.
 */
export function imageOfTemplate(template: string | null): ImageName {
  return template === 'windows11' ? WINDOWS_IMAGE : UBUNTU_IMAGE;
}

/** Older agents list template names in `host.images` (before the catalogue): their images. */
const LEGACY_HOST_IMAGES: Record<string, ImageName> = {
  ubuntu22: UBUNTU_IMAGE,
  windows11: WINDOWS_IMAGE,
};

/**
 * The catalogue names of what a host holds: its `ready` images and an older agent's list (as
 * heldImagesSql in server/modules/listings/listing-sql.ts reads them; null: no host, no inventory).
 */
export function heldImages(held: { ready: unknown; legacy: unknown } | null): ImageName[] {
  const names = new Set<ImageName>();
  const { ready, legacy } = held ?? { ready: [], legacy: [] };
  if (Array.isArray(ready)) for (const n of ready) if (typeof n === 'string') names.add(n);
  if (Array.isArray(legacy)) {
    for (const n of legacy) {
      const name = typeof n === 'string' ? LEGACY_HOST_IMAGES[n] : undefined;
      if (name) names.add(name);
    }
  }
  return [...names];
}

/**
 * Reads and checks an operator's catalogue (IMAGE_CATALOGUE_FILE): a JSON array of images
 * (shared/contracts/images.ts), names unique. Throws an Error whose message says what is wrong.
 */
export function readImageCatalogue(file: string): ImageCatalogue {
  const catalogue = readConfigFile(file, imageCatalogue, 'not an image catalogue');
  const seen = new Set<string>();
  for (const image of catalogue) {
    if (seen.has(image.name)) throw new Error(`${file}: image ${image.name} is listed twice`);
    seen.add(image.name);
    if ((image.url === null) !== (image.sha256 === null)) {
      throw new Error(`${file}: image ${image.name} needs both url and sha256, or neither`);
    }
  }
  return catalogue;
}

/** The catalogue of this process (a constant: built once at start) and what it answers. */
export interface Images {
  readonly catalogue: ImageCatalogue;
  get(name: ImageName): CatalogueImage | undefined;
  /** A host can fetch it: the catalogue gives it a source. */
  fetchable(name: ImageName): boolean;
  /** Whether a host holding `held` can run `name`: it holds it, or can fetch it. */
  offeredOn(name: ImageName, held: readonly string[]): boolean;
}

export function createImages(catalogue: ImageCatalogue = DEFAULT_IMAGE_CATALOGUE): Images {
  const byName = new Map(catalogue.map((image) => [image.name, image] as const));
  const fetchable = (name: ImageName) => {
    const image = byName.get(name);
    return image !== undefined && image.url !== null && image.sha256 !== null;
  };
  return {
    catalogue,
    get: (name) => byName.get(name),
    fetchable,
    offeredOn: (name, held) => fetchable(name) || held.includes(name),
  };
}
